#!/usr/bin/env python3
"""Writes the seed corpora of the text-input fuzz targets from the project's
own fixtures (outline and shell-compress test fixtures, documented config
keys and host file shapes, the MCP messages of docs/mcp.md's tools).
`cargo run --example daemon_seeds` writes those of `daemon_requests`.
Run from fuzz/; seeds are named `seed-*`, so crash inputs added beside them
(`crash-*`) are kept. Inputs are cut to MAX bytes: seeds need shapes, not bulk."""

import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fuzz" / "corpus"
MAX = 6000


def write(target, name, data):
    if isinstance(data, str):
        data = data.encode()
    d = CORPUS / target
    d.mkdir(parents=True, exist_ok=True)
    (d / f"seed-{name}").write_bytes(data[:MAX])


def clear(target):
    d = CORPUS / target
    if d.exists():
        for f in d.glob("seed-*"):
            f.unlink()


# outline: one byte of language (Language::ALL order; prose format = byte % 5), then the source.
LANGUAGES = ["rust", "python", "javascript", "typescript", "tsx", "go", "java", "c", "cpp", "csharp", "ruby",
             "markdown", "json", "yaml", "toml"]
PROSE = {".md": 0, ".rst": 1, ".adoc": 2, ".org": 3, ".txt": 4}
clear("outline")
fixtures = ROOT / "outline" / "tests" / "fixtures"
for lang_dir in sorted(fixtures.iterdir()):
    sources = sorted(f for f in lang_dir.iterdir() if not f.name.endswith((".map.txt", ".signatures.txt", ".outline.txt")))
    for f in sources:
        if lang_dir.name in LANGUAGES:
            choice = LANGUAGES.index(lang_dir.name)
        else:
            # A prose file: the byte picks its format (byte % 5); the language is whatever 15 + format gives.
            choice = 15 + PROSE.get(f.suffix, 4)
        write("outline", f"{lang_dir.name}-{f.name}", bytes([choice]) + f.read_bytes())

# shell_compress: command line, exit code, output (the fixtures' header, unwrapped).
clear("shell_compress")
fixtures = ROOT / "shell-compress" / "tests" / "fixtures"
for family in sorted(d for d in fixtures.iterdir() if d.is_dir() and d.name != "heldout"):
    for f in sorted(family.glob("*.txt"))[:1]:
        head, _, raw = f.read_bytes().partition(b"# ---\n")
        fields = dict(line[2:].split(": ", 1) for line in head.decode().splitlines() if ": " in line)
        write("shell_compress", f"{family.name}-{f.stem}",
              f"{fields.get('command', '')}\n{fields.get('exit', '0')}\n".encode() + raw)

# config: documented keys, valid and not; after a NUL, KEY=VALUE for `set`.
clear("config")
configs = {
    "empty": "",
    "defaults": "idle_timeout_secs = 1800\ndrain_timeout_secs = 10\nmax_message_bytes = 16777216\n",
    "comments": "# lean-ctxd\nidle_timeout_secs = 0 # never\n\n# reads\nmax_read_bytes = 1048576\n",
    "lists": 'allow_paths = ["/srv/shared", "/opt/data"]\ndeny_paths = ["**/.env", "secrets/**"]\n'
             'shell_deny = ["rm -rf *"]\nread_only_paths = ["/usr/include"]\n',
    "choices": 'mcp_tools_profile = "minimal"\nrules_host = "codex"\ngit_dir_edits = "allow"\nredaction = false\n',
    "mcp": 'mcp_tools_profile = "all"\nmcp_disabled_tools = ["ctx_shell", "ctx_edit"]\n',
    "out-of-range": "drain_timeout_secs = 0\n",
    "wrong-type": 'idle_timeout_secs = "soon"\n',
    "relative-path": 'allow_paths = ["relative/dir"]\n',
    "unknown-key": "colour = 3\n",
    "broken": "idle_timeout_secs = \n[[",
    "table": "[search]\nmemory = 5\n",
    "archive": "archive_max_age_days = 30\narchive_max_bytes = 1073741824\ncache_bytes = 0\n",
    "search": "search_memory_bytes = 268435456\nsearch_idle_close_secs = 600\n",
}
sets = ["idle_timeout_secs=60", "allow_paths=/a, /b", "redaction=off", "rules_host=cursor",
        "max_read_bytes=12", "nope=1", "mcp_tools_profile= all ", "deny_paths="]
for i, (name, text) in enumerate(configs.items()):
    write("config", name, text)
    write("config", f"{name}-set", text + "\0" + sets[i % len(sets)])

# host_config: one byte (host index in HOSTS; +128: project scope), then the file.
clear("host_config")
json_files = {
    "empty": "",
    "object": "{}\n",
    "others": '{\n  // my servers\n  "mcpServers": {\n    "other": { "command": "other-mcp", "args": [] }, /* keep */\n  }\n}\n',
    "ours": '{"mcpServers": {"lean-ctx": {"type": "stdio", "command": "/old/lctx-mcp", "args": [], "env": {}}}}',
    "nested": '{"mcp": {"servers": {"x": {}}}, "context_servers": {}, "amp.mcpServers": {}, "servers": {}}',
    "trailing": '{"mcpServers": {"a": {"command": "a",},},}',
    "broken": '{"mcpServers": {',
    "not-object": "[1, 2, 3]\n",
}
toml_files = {
    "codex-empty": "",
    "codex-table": '# codex\nmodel = "o3"\n\n[mcp_servers.other]\ncommand = "other"\nargs = ["--x"]\n',
    "codex-inline": 'mcp_servers = { lean-ctx = { command = "/old/lctx-mcp" } }\n',
    "codex-ours": '[mcp_servers.lean-ctx]\ncommand = "/old/lctx-mcp"\nargs = []\n',
    "codex-broken": "[mcp_servers\ncommand = 1\n",
    "codex-dotted": 'mcp_servers.lean-ctx.command = "x"\n',
}
yaml_files = {
    "goose-empty": "",
    "goose-others": "# goose\nGOOSE_PROVIDER: anthropic\nGOOSE_SEARCH_PATHS:\n- /usr/local/bin\nextensions:\n  developer:\n"
                    "    enabled: true # on\n    type: builtin\n  github:\n    args:\n    - -y\n    cmd: npx\n"
                    "    envs: {}\n    type: stdio\n# tools\nGOOSE_MODE: auto\n",
    "goose-ours": "extensions:\n  lean-ctx: {cmd: /old/lctx-mcp, args: []}\n  dev:\n    description: |\n      # text\n",
    "goose-flow": "extensions: {developer: {enabled: true}}\n",
    "goose-anchor": "base: &b\n  timeout: 1\nextensions:\n  dev:\n    <<: *b\n",
    "goose-crlf": "a: 1\r\nextensions:\r\n    dev:\r\n        enabled: true\r\n",
}
CODEX = 4  # index of codex in HOSTS (client/src/setup/mod.rs)
GOOSE = 14  # index of goose in HOSTS
for host in range(14):
    for name, text in json_files.items():
        if host != CODEX and (host + len(name)) % 4 == 0 or name in ("others", "ours"):
            write("host_config", f"{host}-{name}", bytes([host]) + text.encode())
            write("host_config", f"{host}-{name}-project", bytes([host + 128]) + text.encode())
for name, text in toml_files.items():
    write("host_config", name, bytes([CODEX]) + text.encode())
for name, text in yaml_files.items():
    write("host_config", name, bytes([GOOSE]) + text.encode())

# paths: one byte (cwd: project, src, src/sub), then the path as a client sends it.
clear("paths")
paths = ["src/main.rs", "README.md", "main.rs", "sub/notes.md", "../outside/secret.txt", "../../outside/secret.txt",
         "link_in", "link_out", "dir_out/secret.txt", "dir_out", "loop_a", "/etc/passwd", "/", ".", "..", "",
         "src/../../outside/secret.txt", "new_file.rs", "src/nope/new.rs", "src/sub", ".git/HEAD", "a\0b",
         "./././src//main.rs", "src/main.rs/", "~/x", "link_out/"]
for i, p in enumerate(paths):
    write("paths", f"{i:02}", bytes([i % 3]) + p.encode())

# mcp_stdio: newline-delimited JSON-RPC sessions.
clear("mcp_stdio")
def line(obj):
    return json.dumps(obj) + "\n"
init = line({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "fuzz", "version": "1"}}})
initialized = line({"jsonrpc": "2.0", "method": "notifications/initialized"})
def call(i, name, args):
    return line({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {"name": name, "arguments": args}})
sessions = {
    "list": init + initialized + line({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
    "read": init + initialized + call(2, "ctx_read", {"path": "src/main.rs", "mode": "signatures"}),
    "shell": init + initialized + call(2, "ctx_shell", {"command": "cargo test", "timeout": 5}),
    "search": init + initialized + call(2, "ctx_search", {"pattern": "fn main", "path": "src"}),
    "knowledge": init + initialized + call(2, "ctx_knowledge", {"action": "remember", "key": "k", "value": "v"}),
    "unknown-tool": init + initialized + call(2, "no_such_tool", {}),
    "disabled": init + initialized + call(2, "ctx_gain", {}),
    "bad-args": init + initialized + call(2, "ctx_read", {"path": 5}) + call(3, "ctx_read", 7),
    "not-json": "{not json\n" + init,
    "no-init": call(1, "ctx_read", {"path": "a"}),
    "bom-crlf": "\ufeff" + init.replace("\n", "\r\n"),
    "batch": "[" + init.strip() + "," + initialized.strip() + "]\n",
    "ping": init + initialized + line({"jsonrpc": "2.0", "id": "p", "method": "ping"}),
    "cancel": init + initialized + call(2, "ctx_shell", {"command": "sleep 1"})
              + line({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2}}),
    "discover": line({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {}}),
    "no-newline": init.strip(),
    "blank-lines": "\n\n  \n" + init + "\n",
    "id-types": line({"jsonrpc": "2.0", "id": None, "method": "tools/list"})
                + line({"jsonrpc": "2.0", "id": 1.5, "method": "tools/list"})
                + line({"jsonrpc": "2.0", "id": [1], "method": "tools/list"}),
    "response": init + line({"jsonrpc": "2.0", "id": 9, "result": {}}),
}
for name, text in sessions.items():
    write("mcp_stdio", name, text)

total = sum(f.stat().st_size for f in CORPUS.rglob("*") if f.is_file())
print(f"{sum(1 for _ in CORPUS.rglob('*') if _.is_file())} corpus files, {total} bytes")
