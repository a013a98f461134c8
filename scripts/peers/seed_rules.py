#!/usr/bin/env python3
"""Seed 002's landing rules as a peer for `landing bench --peers`: the obvious Python program.

The rules, as the seed lesson states them, in this repository's own code (standard library only, Python 3.11+):
- each line is one JSON object; malformed JSON, a missing required field, a bad type, an unknown field or a value
  outside the contract quarantines the line (counted, never shown);
- a prohibited field (email, name, payment_token) refuses the whole file;
- event_time must carry an offset and is normalised to UTC;
- the same event_id with the same canonical payload is one event; with another payload it refuses the file;
- more rejected lines than the cap refuses the file.
Both shapes first hash the stored bytes in a pass of their own (SHA-256 is the seed's input identity), as its
walkthrough does:
- `--shape streamed` (the default): accepted rows are written as they are decided, and only a SHA-256 of each
  event_id's canonical payload is kept, as the seed's text recommends for a peak day;
- `--shape as-written`: the shape of the seed's walkthrough program, which holds every accepted event in a list and
  each event_id's canonical payload itself in a dict, then serialises the rows again and writes them at the end (to a
  temporary file, fsync, rename). Same rules, same output bytes; it is what the seed's own program costs.
Prints one JSON summary on stdout; nothing from a row is printed anywhere.
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


def sha256_of(path):
    """The stored bytes' SHA-256, in a pass of its own before any line is parsed (the seed's input identity)."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1024 * 1024), b""):
            digest.update(chunk)
    return digest.hexdigest()


def events(source, max_rejected, counts):
    """Each line's event, in order; counts lines and rejects, and sets counts["refusal"] and stops when the file is refused."""
    for line in source:
        counts["lines"] += 1
        try:
            try:
                obj = json.loads(line)
            except ValueError:
                raise Reject("invalid_json") from None
            event = decide(obj)
        except Reject:
            counts["rejected"] += 1
            if counts["rejected"] > max_rejected:
                counts["refusal"] = "reject_cap"
                return
            continue
        except Refuse as refused:
            counts["refusal"] = str(refused)
            return
        yield event


def canonical(event):
    return json.dumps(event, sort_keys=True, separators=(",", ":"))


def run_as_written(path, out_path, max_rejected):
    """The seed walkthrough's shape: every accepted event held, each id's canonical payload kept whole, one write at the end."""
    digest = sha256_of(path)
    counts = {"lines": 0, "rejected": 0, "refusal": None}
    accepted = []
    seen = {}  # event_id -> its canonical payload
    duplicates = 0
    with open_text(path) as source:
        for event in events(source, max_rejected, counts):
            identity = canonical(event)
            previous = seen.get(event["event_id"])
            if previous is None:
                seen[event["event_id"]] = identity
                accepted.append(event)
            elif previous == identity:
                duplicates += 1
            else:
                counts["refusal"] = "key_conflict"
                break
    if counts["refusal"] is None:
        text = "".join(canonical(row) + "\n" for row in accepted)
        tmp = out_path + ".partial"
        with open(tmp, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, out_path)
    return summary_of(digest, counts, len(accepted), duplicates)


def summary_of(digest, counts, accepted, duplicates):
    refusal = counts["refusal"]
    return {"decision": "accept" if refusal is None else "refuse", "refusal": refusal, "sha256": digest,
            "lines": counts["lines"], "accepted": accepted, "duplicates": duplicates, "rejected": counts["rejected"]}


def run(path, out_path, max_rejected):
    digest = sha256_of(path)
    counts = {"lines": 0, "rejected": 0, "refusal": None}
    seen = {}  # event_id -> SHA-256 of its canonical payload
    accepted = duplicates = 0
    tmp = out_path + ".partial"
    with open_text(path) as source, open(tmp, "w", encoding="utf-8", newline="\n") as sink:
        for event in events(source, max_rejected, counts):
            canonical_row = canonical(event)
            payload = hashlib.sha256(canonical_row.encode("utf-8")).digest()
            previous = seen.get(event["event_id"])
            if previous is None:
                seen[event["event_id"]] = payload
                sink.write(canonical_row)
                sink.write("\n")
                accepted += 1
            elif previous == payload:
                duplicates += 1
            else:
                counts["refusal"] = "key_conflict"
                break
    if counts["refusal"] is None:
        os.replace(tmp, out_path)
    else:
        os.remove(tmp)
    return summary_of(digest, counts, accepted, duplicates)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("input", help="the JSONL file (plain or gzip)")
    parser.add_argument("--accepted", required=True, help="where the accepted rows go (replaced whole, only when publishable)")
    parser.add_argument("--max-rejected", type=int, default=10, help="the reject cap (default: the contract's, 10)")
    parser.add_argument("--shape", choices=("streamed", "as-written"), default="streamed",
                        help="streamed (the default), or as the seed's walkthrough program is written (rows held, written at the end)")
    args = parser.parse_args()
    started = time.monotonic()
    summary = (run_as_written if args.shape == "as-written" else run)(args.input, args.accepted, args.max_rejected)
    summary["seconds"] = round(time.monotonic() - started, 3)
    print(json.dumps(summary))
    return 0 if summary["decision"] == "accept" else 1


if __name__ == "__main__":
    sys.exit(main())
