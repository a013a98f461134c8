#!/usr/bin/env python3
"""Seed 002's landing rules as a peer for `landing bench --peers`: the obvious Python program.

The rules, as the seed lesson states them, in this repository's own code (standard library only, Python 3.11+):
- each line is one JSON object; malformed JSON, a missing required field, a bad type, an unknown field or a value
  outside the contract quarantines the line (counted, never shown);
- a prohibited field (email, name, payment_token) refuses the whole file;
- event_time must carry an offset and is normalised to UTC;
- the same event_id with the same canonical payload is one event; with another payload it refuses the file;
- more rejected lines than the cap refuses the file.
The file is streamed: accepted rows are written as they are decided, and only a SHA-256 of each event_id's canonical
payload is kept, as the seed recommends for a peak day. Prints one JSON summary on stdout; nothing from a row is
printed anywhere.
"""
import argparse
import gzip
import hashlib
import json
import os
import sys
import time
from datetime import datetime, timezone

REQUIRED = ("event_id", "learner_id", "lesson_id", "event_type", "attempt_number", "event_time")
OPTIONAL = ("checkpoint",)
KNOWN = frozenset(REQUIRED + OPTIONAL)
PROHIBITED = ("email", "name", "payment_token")
EVENT_TYPES = frozenset(("checkpoint", "completed"))


class Reject(Exception):
    """The line is quarantined; the message is a reason code, never content."""


class Refuse(Exception):
    """The file must not be published."""


def is_int(value):
    # bool is an int subclass in Python; the contract's integers are not booleans
    return isinstance(value, int) and not isinstance(value, bool)


def decide(obj):
    """The event's canonical fields, or Reject; Refuse for a prohibited field."""
    if not isinstance(obj, dict):
        raise Reject("not_an_object")
    for key in PROHIBITED:
        if key in obj:
            raise Refuse("prohibited_field")
    for key in obj:
        if key not in KNOWN:
            raise Reject("unknown_field")
    for key in REQUIRED:
        if key not in obj:
            raise Reject("missing_field")
    for key in ("event_id", "learner_id", "lesson_id"):
        value = obj[key]
        if not isinstance(value, str) or not value:
            raise Reject("bad_identifier")
    if obj["event_type"] not in EVENT_TYPES:
        raise Reject("bad_event_type")
    attempt = obj["attempt_number"]
    if not is_int(attempt) or attempt < 1:
        raise Reject("bad_attempt_number")
    checkpoint = obj.get("checkpoint")
    if checkpoint is not None and not is_int(checkpoint):
        raise Reject("bad_checkpoint")
    raw_time = obj["event_time"]
    if not isinstance(raw_time, str):
        raise Reject("bad_event_time")
    try:
        instant = datetime.fromisoformat(raw_time)
    except ValueError:
        raise Reject("bad_event_time") from None
    if instant.tzinfo is None:
        raise Reject("naive_event_time")
    utc = instant.astimezone(timezone.utc)
    return {
        "event_id": obj["event_id"],
        "learner_id": obj["learner_id"],
        "lesson_id": obj["lesson_id"],
        "event_type": obj["event_type"],
        "attempt_number": attempt,
        "event_time": utc.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "checkpoint": checkpoint,
    }


def open_text(path):
    with open(path, "rb") as probe:
        magic = probe.read(2)
    if magic == b"\x1f\x8b":
        return gzip.open(path, "rt", encoding="utf-8", newline="\n")
    return open(path, "r", encoding="utf-8", newline="\n")


def run(path, out_path, max_rejected):
    seen = {}  # event_id -> SHA-256 of its canonical payload
    accepted = duplicates = rejected = lines = 0
    refusal = None
    tmp = out_path + ".partial"
    with open_text(path) as source, open(tmp, "w", encoding="utf-8", newline="\n") as sink:
        for line in source:
            lines += 1
            try:
                try:
                    obj = json.loads(line)
                except ValueError:
                    raise Reject("invalid_json") from None
                event = decide(obj)
            except Reject:
                rejected += 1
                if rejected > max_rejected:
                    refusal = "reject_cap"
                    break
                continue
            except Refuse as refused:
                refusal = str(refused)
                break
            canonical = json.dumps(event, sort_keys=True, separators=(",", ":"))
            digest = hashlib.sha256(canonical.encode("utf-8")).digest()
            previous = seen.get(event["event_id"])
            if previous is None:
                seen[event["event_id"]] = digest
                sink.write(canonical)
                sink.write("\n")
                accepted += 1
            elif previous == digest:
                duplicates += 1
            else:
                refusal = "key_conflict"
                break
    if refusal is None:
        os.replace(tmp, out_path)
    else:
        os.remove(tmp)
    return {"decision": "accept" if refusal is None else "refuse", "refusal": refusal, "lines": lines,
            "accepted": accepted, "duplicates": duplicates, "rejected": rejected}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input", help="the JSONL file (plain or gzip)")
    parser.add_argument("--accepted", required=True, help="where the accepted rows go (replaced whole, only when publishable)")
    parser.add_argument("--max-rejected", type=int, default=10, help="the reject cap (default: the contract's, 10)")
    args = parser.parse_args()
    started = time.monotonic()
    summary = run(args.input, args.accepted, args.max_rejected)
    summary["seconds"] = round(time.monotonic() - started, 3)
    print(json.dumps(summary))
    return 0 if summary["decision"] == "accept" else 1


if __name__ == "__main__":
    sys.exit(main())
