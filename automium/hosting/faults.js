// Breaks the page as the server was told (AUTOMIUM.faults), after every render, so that a
// journey has a failing variant. Filled in by the executor's work (issue "Journeys run for
// real"); until then a fault changes nothing.
