"""A complete external bot for the Pyramid Tables API, standard library only.

    API_TOKEN=pt_... python api_bot.py https://tables.example.org [TABLE_ID]

It waits on the stream for tables that wait on it, reads its seat's view and legal
moves, and plays one of them (at random: put your own strategy in `choose`). With
TABLE_ID it plays that table only and stops when it is over, printing the outcome.
"""
import json
import os
import random
import sys
import urllib.error
import urllib.request
import uuid

SITE = sys.argv[1].rstrip("/")
ONLY = int(sys.argv[2]) if len(sys.argv) > 2 else None
AUTH = {"Authorization": "Bearer " + os.environ["API_TOKEN"]}
rng = random.Random(os.environ.get("BOT_SEED"))


def call(method, path, body=None):
    request = urllib.request.Request(
        SITE + "/api/v1" + path, method=method, headers={**AUTH, "Content-Type": "application/json"},
        data=None if body is None else json.dumps(body).encode())
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.load(response)
    except urllib.error.HTTPError as problem:  # RFC 9457 problem details, with a "code"
        return json.load(problem)


def choose(view, moves):
    return rng.choice(moves)["move"]  # view: all this seat may see; moves: [{move, label}]


def play(table_id):
    view = call("GET", f"/tables/{table_id}")["view"]
    legal = call("GET", f"/tables/{table_id}/moves")
    if legal["moves"]:
        answer = call("POST", f"/tables/{table_id}/moves", {
            "move": choose(view, legal["moves"]), "based_on": legal["seq"],
            "key": uuid.uuid4().hex})  # the same key again would never play twice
        print(table_id, legal["seq"], answer.get("code", "moved"), flush=True)


stream = urllib.request.urlopen(urllib.request.Request(SITE + "/api/v1/stream", headers=AUTH),
                                timeout=60)
for line in stream:  # one JSON object a line: hello, table, turn, keepalive
    event = json.loads(line)
    if event["type"] == "turn" and ONLY in (None, event["table"]):
        play(event["table"])
    elif event["type"] == "table" and event["table"] == ONLY and event["status"] in (
            "finished", "aborted"):
        print("over", json.dumps(call("GET", f"/tables/{ONLY}")["outcome"]), flush=True)
        break
