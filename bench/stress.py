#!/usr/bin/env python3
"""Writes the synthetic stress document of `bench/run.sh corpus`: one line of JSON, ~20 MB, 10,000
operations of which ~3,000 are put/delete (a diagnostic each), with nested body properties, several
parameters each, and non-ASCII descriptions (columns must be counted in characters).
With `wide [N]` after the file name it writes the wide document instead: one operation with N query
parameters (20,000 by default) and N/4 body properties. `bench/run.sh scaling` times it at growing N:
a rule that compares every parameter with every other shows as time growing faster than the input.
With `graph`, it writes a document of Microsoft Graph beta's size instead (~47 MB, 15,500 paths,
~24,400 operations; Graph beta: 47 MB, 22,361 operations)."""
import json
import random
import sys

random.seed(7)
paths = {}
for i in range(15500 if sys.argv[2:3] == ["graph"] else 7000):
    path = f"/resource{i}/{{id}}/items"
    item = {}
    get = {
        "operationId": f"getResource{i}",
        "summary": "Gibt die Einträge zurück — détaillé",
        "parameters": [{"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}]
        + [{"name": f"filter{k}", "in": "query", "schema": {"type": "string", "default": "ä" * 5,
            "description": "ein Filter für Einträge"}} for k in range(6)],
        # Responses are most of a real document and none of the OIS.
        "responses": {"200": {"description": "Die Einträge " * 20, "content": {"application/json": {"schema": {
            "type": "object", "properties": {f"field{k}": {"type": "string", "description": "Ein Feld " * 10}
                                             for k in range(12)}}}}}},
    }
    item["get"] = get
    if i % 7 == 0:
        item["post"] = {
            "operationId": f"postResource{i}",
            "requestBody": {"content": {"application/json": {"schema": {"type": "object", "properties": {
                "name": {"type": "string"}, "meta": {"type": "object", "properties": {"a": {"type": "string"}}},
                "tags": {"type": "array", "items": {"type": "string"}}}}}}},
            "responses": {"200": {"description": "created"}},
        }
    if i % 7 < 3:
        item["put" if i % 2 else "delete"] = {"operationId": f"change{i}", "responses": {"204": {"description": "done"}}}
    paths[path] = item
if sys.argv[2:3] == ["wide"]:
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 20000
    # The wide operation: 40 path placeholders, `count` query parameters (some repeated), count/4
    # body properties (some named like a query parameter).
    wide = "/wide/" + "/".join(f"{{p{k}}}" for k in range(40))
    paths[wide] = {"post": {
        "operationId": "wide",
        "parameters": [{"name": f"q{k % (count - count // 20)}", "in": "query", "schema": {"type": "string"}}
                       for k in range(count)]
        + [{"name": f"p{k}", "in": "path", "required": True, "schema": {"type": "string"}} for k in range(0, 40, 2)],
        "requestBody": {"content": {"application/json": {"schema": {"type": "object", "properties": {
            f"q{k * 7}" if k % 10 == 0 else f"b{k}": {"type": "string"} for k in range(count // 4)}}}}},
        "responses": {"200": {"description": "ok"}},
    }}
    paths = {wide: paths[wide]}
document = {
    "openapi": "3.0.3",
    "info": {"title": "Stress (synthetic)", "version": "1.0"},
    "servers": [{"url": "https://api.stress.example/v1"}],
    "paths": paths,
}
with open(sys.argv[1], "w", encoding="utf-8") as out:
    json.dump(document, out, ensure_ascii=False, separators=(",", ":"))
