"""The one replay recorder: the envelope in the contract's order, seq counted from 0, the
clock it is given (a modeled one moves only when told), and one payload policy for modeled
and real runs alike: values that are None left out, long texts cut."""

from __future__ import annotations

from automium.contracts import EventType, ReplayEvent, ReplayLane, Verdict
from automium.replay.recording import TEXT_LIMIT, ModeledClock, Recorder


def test_events_carry_the_envelope_in_order_and_the_clock_they_are_given() -> None:
    clock = ModeledClock()
    recorder = Recorder("run-1", clock)

    recorder.emit(ReplayLane.WORKER, EventType.WORKER_LEASED, {"workerId": "w"})
    clock.advance(250)
    last = recorder.emit(
        ReplayLane.WORKER,
        EventType.RUN_FINISHED,
        {"retryCount": 0},
        step="s1",
        verdict=Verdict.PASSED,
    )

    assert last == {
        "schemaVersion": "automium.replay-event/v1",
        "runId": "run-1",
        "seq": 1,
        "offsetMs": 250,
        "lane": "worker",
        "type": "run.finished",
        "stepId": "s1",
        "verdict": "passed",
        "payload": {"retryCount": 0},
    }
    assert [type(v) for v in last.values()][4:6] == [str, str]  # plain text, not enum members
    assert [e["offsetMs"] for e in recorder.events] == [0, 250]
    for event in recorder.events:
        ReplayEvent.model_validate(event)


def test_a_payload_leaves_none_out_and_cuts_a_long_text() -> None:
    recorder = Recorder("run-1", lambda: 7)

    event = recorder.emit(
        ReplayLane.EXECUTOR,
        EventType.ACTION_FAILED,
        {"intent": "click", "reason": "x" * (TEXT_LIMIT + 1), "ref": None, "attempt": 1},
    )

    assert event["payload"] == {"intent": "click", "reason": "x" * TEXT_LIMIT, "attempt": 1}
    assert event["offsetMs"] == 7
