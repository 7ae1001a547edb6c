#!/usr/bin/env python3
"""A complete nightcall agent: it plays one seat over JSON lines on stdin/stdout.

Run it against the game master with

    nightcall agent play onuw --players 5 --seed 7 --agent "0=python examples/agent.py"

It uses nothing but the standard library, so it is also a template for an agent
in any language: read a line, answer each "observation" with one "action".
It makes one claim in the day (the role it was dealt) and then votes at random.
"""

import json
import random
import sys


def main() -> None:
    rng = random.Random(0)
    claimed = False
    roles = []  # role ids: a claim's role number is an index in this list
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "welcome":
            roles = message["role_ids"]
            print(f"agent: seat {message['seat']} of {message['players']}", file=sys.stderr)
        elif kind == "observation":
            view = message["view"]
            action = None
            if view["phase"] == "day" and message["talk"] and not claimed:
                action = claim_my_card(view, message["talk"], roles)
                claimed = True
            if action is None and view["legal"]:
                action = rng.choice(view["legal"])
            if action is None:
                continue  # nothing to do but talk, and nothing to say: stay silent
            reply = {"type": "action", "action": action, "state_id": message["state_id"]}
            print(json.dumps(reply), flush=True)
        elif kind == "error":
            print(f"agent: refused: {message['message']}", file=sys.stderr)
        elif kind == "game_over":
            outcome = message["view"].get("outcome", {})
            print(f"agent: won={message['won']} {outcome.get('explanation')}", file=sys.stderr)
            return


def claim_my_card(view: dict, talk: list, roles: list) -> dict | None:
    """Say the role I was dealt, if my events show it and it is a claim I may make."""
    for event in view["events"]:
        if event["kind"] == "deal" and event.get("seat") == view["seat"]:
            for option in talk:
                if option["kind"] == "claim" and roles[option["a"]] == event["card"]:
                    return option
    return None


if __name__ == "__main__":
    main()
