#!/usr/bin/env python3
"""Writes the synthetic stress document of `bench/run.sh corpus`: one line of JSON, ~20 MB, 10,000
operations of which ~3,000 are put/delete (a diagnostic each), with nested body properties, several
parameters each, and non-ASCII descriptions (columns must be counted in characters). One wide
operation has thousands of parameters, body properties and path placeholders, so any rule that
compares every parameter with every other shows here as a ratio far above the rest."""
import json
import random
import sys

random.seed(7)
paths = {}
for i in range(7000):
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
# The wide operation: 4,000 path placeholders, 20,000 query parameters (some repeated), 5,000 body
# properties (some named like a query parameter).
wide = "/wide/" + "/".join(f"{{p{k}}}" for k in range(4000))
paths[wide] = {"post": {
    "operationId": "wide",
    "parameters": [{"name": f"q{k % 19000}", "in": "query", "schema": {"type": "string"}} for k in range(20000)]
    + [{"name": f"p{k}", "in": "path", "required": True, "schema": {"type": "string"}} for k in range(0, 4000, 2)],
    "requestBody": {"content": {"application/json": {"schema": {"type": "object", "properties": {
        f"q{k * 7}" if k % 10 == 0 else f"b{k}": {"type": "string"} for k in range(5000)}}}}},
    "responses": {"200": {"description": "ok"}},
}}
document = {
    "openapi": "3.0.3",
    "info": {"title": "Stress (synthetic)", "version": "1.0"},
    "servers": [{"url": "https://api.stress.example/v1"}],
    "paths": paths,
}
with open(sys.argv[1], "w", encoding="utf-8") as out:
    json.dump(document, out, ensure_ascii=False, separators=(",", ":"))
