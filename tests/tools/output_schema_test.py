#!/usr/bin/python3
"""The one output schema (docs/output.md), enforced: runs every case of
tests/tools/output_cases/*.txt and checks what the tools print.

usage: output_schema_test.py BIN_DIR SOURCE_DIR
  BIN_DIR holds eulerdeck and cardlab; SOURCE_DIR is the repository.

Case files: one case per line; blank lines and lines starting with # are
ignored. Words are split as by the shell (quotes group); $TMP (a temporary
directory of the file), $EULERDECK and $CARDLAB (the binaries) are replaced.
  setup <shell command>        run with sh -c (in $TMP); must exit 0
  json <schema> <tool> <args>  exit 0; every stdout line a JSON object valid
                               against docs/schema/<schema> (draft 2020-12),
                               "command" its first field, no number > 2^53
  csv <tool> <args>            exit 0; stdout a CSV of data rows only, every
                               column in docs/schema/csv_columns.json,
                               game,ranks,suits first
  csv-nogame <tool> <args>     the same, for a CSV not about one card game
  bfile <tool> <args>          exit 0; stdout in the OEIS b-file format
  bad <tool> <args>            exit 2, nothing on stdout, one line on stderr
The test also fails when a command (or mode) whose --help offers --json has
no json case, when a schema file is used by no case, and when a schema is not
strict (additionalProperties false, every property described).

Run with Debian's /usr/bin/python3 (python3-jsonschema). Each failure is one
line: "FAIL <file>:<line>: <what>".
"""
import csv
import glob
import io
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

try:
    import jsonschema
except ImportError:
    print("FAIL: python3-jsonschema is missing (apt-get install python3-jsonschema; "
          "run with /usr/bin/python3)")
    sys.exit(1)

BIN, SRC = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
TOOLS = {"eulerdeck": os.path.join(BIN, "eulerdeck"), "cardlab": os.path.join(BIN, "cardlab")}
SCHEMA_DIR = os.path.join(SRC, "docs", "schema")
CASE_DIR = os.path.join(SRC, "tests", "tools", "output_cases")
DRAFT = "https://json-schema.org/draft/2020-12/schema"
TIMEOUT = 600
MAX_SAFE = 2**53

failures = []
checked = {"json": 0, "csv": 0, "csv-nogame": 0, "bfile": 0, "bad": 0, "setup": 0}


def fail(where, what):
    failures.append(f"FAIL {where}: {what}")
    print(failures[-1], flush=True)


def short(text, n=200):
    text = " ".join(text.split())
    return text if len(text) <= n else text[:n] + "..."


# ---- the schemas --------------------------------------------------------------


# Subschemas that only constrain an object defined elsewhere (conditions,
# negations): their "properties" need neither descriptions nor
# additionalProperties.
CONSTRAINTS = ("if", "then", "else", "not", "contains", "dependentSchemas", "propertyNames")


def strictness_errors(node, path="#"):
    """Every object schema with properties forbids others; every property is described."""
    errors = []
    if isinstance(node, dict):
        if "properties" in node:
            if node.get("additionalProperties") is not False:
                errors.append(f"{path}: additionalProperties is not false")
            for name, sub in node["properties"].items():
                if not isinstance(sub, dict) or not sub.get("description"):
                    errors.append(f"{path}/properties/{name}: no description")
        for key, sub in node.items():
            if key in CONSTRAINTS:
                continue
            if key in ("properties", "$defs", "patternProperties"):
                if isinstance(sub, dict):
                    for name, s in sub.items():
                        errors += strictness_errors(s, f"{path}/{key}/{name}")
            elif isinstance(sub, (dict, list)):
                errors += strictness_errors(sub, f"{path}/{key}")
    elif isinstance(node, list):
        for i, sub in enumerate(node):
            errors += strictness_errors(sub, f"{path}/{i}")
    return errors


validators = {}


def validator(name, where):
    """The validator of docs/schema/<name>, checked once; None when unusable."""
    if name in validators:
        return validators[name]
    validators[name] = None
    path = os.path.join(SCHEMA_DIR, name)
    if not os.path.isfile(path):
        fail(where, f"no schema docs/schema/{name}")
        return None
    try:
        with open(path) as f:
            schema = json.load(f)
    except ValueError as e:
        fail(f"docs/schema/{name}", f"not JSON: {e}")
        return None
    if schema.get("$schema") != DRAFT:
        fail(f"docs/schema/{name}", f'"$schema" is not "{DRAFT}"')
    try:
        jsonschema.Draft202012Validator.check_schema(schema)
    except jsonschema.exceptions.SchemaError as e:
        fail(f"docs/schema/{name}", f"not a valid JSON Schema: {short(e.message)}")
        return None
    for error in strictness_errors(schema):
        fail(f"docs/schema/{name}", error)
    validators[name] = jsonschema.Draft202012Validator(schema)
    return validators[name]


# ---- running a case ------------------------------------------------------------


def run(where, words):
    tool = words[0]
    if tool not in TOOLS:
        fail(where, f"the command must start with eulerdeck or cardlab, not '{tool}'")
        return None
    try:
        return subprocess.run([TOOLS[tool]] + words[1:], capture_output=True, text=True,
                              timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        fail(where, f"did not end within {TIMEOUT} s: {' '.join(words)}")
    except OSError as e:
        fail(where, f"cannot run {TOOLS[tool]}: {e}")
    return None


def ran_ok(where, words, p):
    if p is None:
        return False
    if p.returncode != 0:
        fail(where, f"exit {p.returncode}: {' '.join(words)}: {short(p.stderr)}")
        return False
    if not p.stdout:
        fail(where, f"nothing on stdout: {' '.join(words)}")
        return False
    return True


def big_numbers(value, path="$"):
    """Integers JavaScript would round: they must be strings (docs/output.md)."""
    if isinstance(value, bool):
        return []
    if isinstance(value, int) and abs(value) > MAX_SAFE:
        return [path]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in big_numbers(v, f"{path}.{k}")]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in big_numbers(v, f"{path}[{i}]")]
    return []


def reject_constant(name):
    raise ValueError(f"{name} is not JSON")


def check_json(where, schema_name, words):
    v = validator(schema_name, where)
    p = run(where, words)
    if not ran_ok(where, words, p):
        return
    if not p.stdout.endswith("\n"):
        fail(where, "the JSON output does not end in a newline")
    for i, line in enumerate(p.stdout.split("\n")[:-1], 1):
        at = f"{where} (stdout line {i})"
        try:
            pairs = json.loads(line, object_pairs_hook=lambda kv: kv, parse_constant=reject_constant)
            obj = json.loads(line)
        except ValueError as e:
            fail(at, f"not one JSON value per line: {e}: {short(line)}")
            continue
        if not isinstance(obj, dict):
            fail(at, f"not a JSON object: {short(line)}")
            continue
        if not pairs or pairs[0][0] != "command":
            fail(at, f'"command" is not the first field (first: {pairs[0][0] if pairs else "none"})')
        expected = schema_name.replace(".schema.json", "")
        # "eulerdeck count --removed" (a mode of count with its own output)
        # is eulerdeck-count-removed.
        if obj.get("command", "").replace(" --", " ").replace(" ", "-") != expected:
            fail(at, f'"command" is {json.dumps(obj.get("command"))}, but the schema is {schema_name}')
        for path in big_numbers(obj):
            fail(at, f"{path} is a number beyond 2^53 (counts are strings)")
        if v is not None:
            for error in sorted(v.iter_errors(obj), key=lambda e: list(e.absolute_path)):
                loc = "$" + "".join(f"[{x}]" if isinstance(x, int) else f".{x}"
                                    for x in error.absolute_path)
                fail(at, f"{schema_name}: {loc}: {short(error.message)}")


csv_vocabulary = None


def vocabulary():
    global csv_vocabulary
    if csv_vocabulary is None:
        path = os.path.join(SCHEMA_DIR, "csv_columns.json")
        try:
            with open(path) as f:
                data = json.load(f)
            csv_vocabulary = data["columns"]
            for name, text in csv_vocabulary.items():
                if not isinstance(text, str) or not text:
                    fail("docs/schema/csv_columns.json", f"column '{name}' has no description")
        except (OSError, ValueError, KeyError) as e:
            fail("docs/schema/csv_columns.json", f"unreadable ({e}); it maps column names to descriptions")
            csv_vocabulary = {}
    return csv_vocabulary


def check_csv(where, words, per_game):
    p = run(where, words)
    if not ran_ok(where, words, p):
        return
    text = p.stdout
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    else:
        fail(where, "the CSV does not end in a newline")
    for i, line in enumerate(lines, 1):
        if line.strip() == "":
            fail(where, f"CSV line {i} is empty")
        elif line.startswith("#"):
            fail(where, f"CSV line {i} is a comment: {short(line)}")
    try:
        rows = list(csv.reader(io.StringIO(text, newline=""), strict=True))
    except csv.Error as e:
        fail(where, f"not CSV: {e}")
        return
    rows = [r for r in rows if r]
    if not rows:
        fail(where, "no CSV header")
        return
    header, data = rows[0], rows[1:]
    if not data:
        fail(where, "no data row")
    if len(set(header)) != len(header):
        fail(where, f"repeated column names: {','.join(header)}")
    known = vocabulary()
    for name in header:
        if name not in known:
            fail(where, f"column '{name}' is not in docs/schema/csv_columns.json")
    if per_game and header[:3] != ["game", "ranks", "suits"]:
        fail(where, f"the columns do not start with game,ranks,suits: {','.join(header[:5])}")
    if not per_game and "game" in header:
        fail(where, "csv-nogame, but the CSV has a game column (use csv)")
    for i, row in enumerate(data, 2):
        if len(row) != len(header):
            fail(where, f"CSV row {i} has {len(row)} fields, the header {len(header)}: {short(','.join(row))}")
            break


def check_bfile(where, words):
    p = run(where, words)
    if not ran_ok(where, words, p):
        return
    lines = p.stdout.split("\n")
    if lines[-1] == "":
        lines.pop()
    else:
        fail(where, "the b-file does not end in a newline")
    i = 0
    while i < len(lines) and lines[i].startswith("#"):
        i += 1
    if i == len(lines):
        fail(where, "the b-file has no terms")
    last = None
    for j, line in enumerate(lines[i:], i + 1):
        m = re.fullmatch(r"(-?[0-9]+) (-?[0-9]+)", line)
        if not m:
            fail(where, f"b-file line {j} is not 'n a(n)': {short(line)}")
            return
        n = int(m.group(1))
        if last is not None and n != last + 1:
            fail(where, f"b-file line {j}: n = {n} does not follow {last}")
            return
        last = n


def check_bad(where, words):
    p = run(where, words)
    if p is None:
        return
    err = p.stderr.splitlines()
    if p.returncode != 2 or p.stdout or len(err) != 1:
        fail(where, f"expected exit 2, no stdout, one line on stderr; got exit {p.returncode}, "
                    f"{len(p.stdout)} bytes on stdout, {len(err)} lines on stderr: {' '.join(words)}")


# ---- which commands must have a json case --------------------------------------


def help_of(words):
    p = subprocess.run([TOOLS[words[0]]] + words[1:] + ["--help"], capture_output=True, text=True,
                       timeout=60)
    return p.stdout


def sub_commands(text):
    """Names listed under a 'commands:', 'models:' or 'questions:' heading."""
    names, inside = [], False
    for line in text.splitlines():
        if re.fullmatch(r"(commands|models|questions|modes):", line.strip()):
            inside = True
            continue
        if inside:
            m = re.match(r"  ([a-z][a-z0-9-]*)\s{2,}\S", line)
            if m:
                names.append(m.group(1))
            elif not line.startswith("    ") or not line.strip():
                inside = False
    return names


def json_commands():
    """Every command path (tool, command[, mode]) whose --help offers --json."""
    found = []
    for tool in TOOLS:
        for command in sub_commands(help_of([tool])):
            text = help_of([tool, command])
            modes = sub_commands(text)
            if modes:
                for mode in modes:
                    if "--json" in help_of([tool, command, mode]):
                        found.append((tool, command, mode))
            elif "--json" in text:
                found.append((tool, command))
    return found


# ---- main -------------------------------------------------------------------------


def main():
    case_files = sorted(glob.glob(os.path.join(CASE_DIR, "*.txt")))
    if not case_files:
        fail(CASE_DIR, "no case files")
    used_schemas = set()
    covered = set()
    for path in case_files:
        name = os.path.relpath(path, SRC)
        with tempfile.TemporaryDirectory(prefix="output_schema.") as tmp:
            subst = {"TMP": tmp, "EULERDECK": TOOLS["eulerdeck"], "CARDLAB": TOOLS["cardlab"]}
            with open(path) as f:
                for number, raw in enumerate(f, 1):
                    line = raw.strip()
                    if not line or line.startswith("#"):
                        continue
                    where = f"{name}:{number}"
                    kind, _, rest = line.partition(" ")
                    if kind == "setup":
                        checked["setup"] += 1
                        env = dict(os.environ, TMP=tmp, EULERDECK=subst["EULERDECK"],
                                   CARDLAB=subst["CARDLAB"])
                        p = subprocess.run(["sh", "-c", rest], cwd=tmp, env=env, capture_output=True,
                                           text=True, timeout=TIMEOUT)
                        if p.returncode != 0:
                            fail(where, f"setup exit {p.returncode}: {rest}: {short(p.stderr)}")
                        continue
                    try:
                        words = [re.sub(r"\$(TMP|EULERDECK|CARDLAB)\b", lambda m: subst[m.group(1)], w)
                                 for w in shlex.split(rest)]
                    except ValueError as e:
                        fail(where, f"cannot split the line: {e}")
                        continue
                    if kind == "json":
                        if len(words) < 2:
                            fail(where, "json needs a schema and a command")
                            continue
                        schema, words = words[0], words[1:]
                        used_schemas.add(schema)
                        covered.add(tuple(words[:3]))
                        covered.add(tuple(words[:2]))
                        check_json(where, schema, words)
                    elif kind in ("csv", "csv-nogame"):
                        check_csv(where, words, kind == "csv")
                    elif kind == "bfile":
                        check_bfile(where, words)
                    elif kind == "bad":
                        check_bad(where, words)
                    else:
                        fail(where, f"unknown case kind '{kind}' (setup, json, csv, csv-nogame, bfile, bad)")
                        continue
                    checked[kind] += 1
    commands = json_commands()
    if not commands:
        fail("coverage", "no command with --json found in the tools' --help (is the parsing broken?)")
    for command in commands:
        if command not in covered:
            fail("coverage", f"'{' '.join(command)}' offers --json but no case file has a json case for it")
    for path in sorted(glob.glob(os.path.join(SCHEMA_DIR, "*.schema.json"))):
        schema = os.path.basename(path)
        if schema not in used_schemas:
            fail("coverage", f"docs/schema/{schema} is used by no json case")
    print("output_schema: " + ", ".join(f"{n} {k}" for k, n in checked.items()) +
          f" cases; {len(commands)} commands with --json; {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
