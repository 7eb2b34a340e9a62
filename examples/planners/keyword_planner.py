#!/usr/bin/env python3
"""A planner for Automium's planner-adapter.v1 protocol: copy it to wrap your own model.

Automium starts this program once per trial and talks to it in JSON lines: it writes one
PlannerRequest per line on stdin (goal, semantic snapshot, allowed intents, secretRefs,
fileRefs, history, stepsLeft) and reads one PlannerDecision per line on stdout. Log to
stderr only: stdout is the protocol.

Strategy (no model): score the page's actionable elements by the words they share with
the goal, act on the best one not tried yet; type the goal's quoted text, or an offered
credential into a password or code field; finish when nothing matches any more.
To wrap a model, replace choose() with a call to it that returns the same dictionary.

    automium run --planner "cmd:keywords=python3 examples/planners/keyword_planner.py" todo-mvc
"""

import json
import re
import sys

VERSION = "automium.planner-adapter/v1"
ME = {"id": "keywords", "vendor": "example", "model": "keyword-match"}
FIELDS = {"textbox", "searchbox", "spinbutton"}
ACTIONABLE = FIELDS | {"button", "link", "tab", "checkbox", "menuitem", "radio"}
STOP = {"a", "an", "and", "the", "to", "of", "on", "in", "for", "with", "then", "see", "is"}


def words(text):
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in STOP and len(w) > 2}


def nodes(node):
    """Every node of the snapshot tree, in document order."""
    yield node
    for child in node.get("children", []):
        yield from nodes(child)


def answer(rationale, **decision):
    return {
        "schemaVersion": VERSION,
        "messageType": "decision",
        "planner": ME,
        **decision,
        "rationale": rationale,
        "tokenUsage": {"input": 0, "output": 0},  # a model wrapper reports its real usage
        "latencyMs": 0,
    }


def choose(request, tried):
    """One decision for one request; ``tried`` remembers what this trial acted on."""
    goal = words(request["goal"])
    route = request["snapshot"]["routeId"]
    best, best_score = None, 0
    for node in nodes(request["snapshot"]["root"]):
        key = (route, node["role"], node["name"])
        if node["role"] not in ACTIONABLE or key in tried or "disabled" in node.get("states", []):
            continue
        score = len(goal & words(node["name"])) + (node["role"] in FIELDS)
        if score > best_score:
            best, best_score = node, score
    if best is None:
        return answer("nothing on the page matches the goal", kind="finish")
    tried.add((route, best["role"], best["name"]))
    target = {"ref": best["ref"]}
    if best["role"] in FIELDS:
        name = best["name"].lower()
        for ref in request.get("secretRefs", []):
            kind = ref.rpartition("#")[2]
            if (kind == "password" and "password" in name) or (
                kind == "one-time-code" and "code" in name
            ):
                return answer(
                    "a credential field", kind="act", intent="fill", target=target, secretRef=ref
                )
        quoted = re.findall(r"\"([^\"]+)\"", request["goal"])
        text = (
            quoted[0] if quoted else sorted(goal - words(name))[0] if goal - words(name) else "test"
        )
        return answer(
            f"type into {best['name']}", kind="act", intent="fill", target=target, value=text
        )
    intent = "check" if best["role"] == "checkbox" else "click"
    return answer(f"{best['name']} matches the goal", kind="act", intent=intent, target=target)


def main():
    tried = set()
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("schemaVersion") != VERSION or request.get("messageType") != "request":
            print(f"not a request: {line[:80]!r}", file=sys.stderr)
            continue
        decision = choose(request, tried)
        sys.stdout.write(json.dumps(decision) + "\n")
        sys.stdout.flush()  # one line per request, at once: Automium waits for it


if __name__ == "__main__":
    main()
