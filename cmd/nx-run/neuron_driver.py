#!/usr/bin/env python3
"""nx-run's neuron backend: runs workloads on a Neuron device with torch-neuronx.

nx-run starts this once per run and talks JSON:
  stdin   {"workloads": [workload records], "warmup": N, "timed": N, "target": "trn1",
           "cache_dir": DIR, "use_cache": true, "work_dir": DIR}
          (every workload with the same "lnc", or none)
  stdout  one line per workload, in order, as each finishes:
          {"index": i, "latencies_us": [...], "compile_ms": x, "cached": bool,
           "neff": PATH, "toolchain": "..."}   or   {"index": i, "error": "..."}
          and {"fatal": "..."} (exit 1) when nothing can run (no torch-neuronx, no device).

How it measures (as the matmul profiler and the pattern study do): inputs live on the
XLA device; one execution is the graph followed by xm.mark_step() and
xm.wait_device_ops(), timed with time.perf_counter().  The first execution compiles
(neuronx-cc through torch-neuronx); compile_ms is its time minus a steady execution.
NEURON_FRAMEWORK_DEBUG=1 keeps the NEFFs in the work directory; the NEFFs that appear
while a workload first runs are that workload's (file names carry hashes, so the
mapping is made here, by order).  NEURON_COMPILE_CACHE_URL points torch-neuronx's
persistent cache at nx's cache directory, so a repeated study does not recompile;
nx keeps an index by workload + target + toolchain to say which runs were cached.
"""
import glob
import hashlib
import json
import os
import shutil
import sys
import tempfile
import time

LOOP_FACTOR = {"small": 1, "medium": 3, "large": 9}  # for_loop trip count = iterations x factor


# Results go to a private copy of the original stdout; fd 1 itself is pointed at
# stderr before torch is imported, so what libraries and the compiler print
# (neuronx-cc writes progress dots and "Compiler status PASS" to stdout) reaches
# the user's terminal and never the result channel.
RESULTS = None


def take_stdout():
    global RESULTS
    RESULTS = os.fdopen(os.dup(1), "w")
    sys.stdout.flush()
    os.dup2(2, 1)


def emit(obj):
    RESULTS.write(json.dumps(obj) + "\n")
    RESULTS.flush()


def fatal(message):
    emit({"fatal": message})
    sys.exit(1)


def neffs(directory):
    return set(glob.glob(os.path.join(directory, "**", "*.neff"), recursive=True))


def cache_key(workload, shape_fields, target, toolchain):
    # shape_fields: the job's list, from nx's workload field table.
    shape = {k: workload.get(k) for k in shape_fields if workload.get(k) is not None}
    text = json.dumps({"shape": shape, "target": target, "toolchain": toolchain}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def build(w, torch, F, device):
    """Returns a function that enqueues one execution of the workload's graph."""
    dtypes = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32,
              "fp8": getattr(torch, "float8_e4m3fn", None)}
    dt = dtypes.get(w.get("dtype", "bf16"))
    if dt is None:
        raise ValueError("dtype %s is not supported by this torch" % w.get("dtype"))

    def rand(*shape):
        return torch.randn(*shape, dtype=torch.float32).to(dt).to(device)

    op = w["op"]
    if op == "matmul":
        a, b = rand(w["M"], w["K"]), rand(w["K"], w["N"])
        return lambda: [a @ b]
    if op == "mlp":
        t = w["batch"] * w["seq"]
        x = rand(t, w["hidden"])
        wg, wu = rand(w["hidden"], w["intermediate"]), rand(w["hidden"], w["intermediate"])
        wd = rand(w["intermediate"], w["hidden"])
        return lambda: [(F.silu(x @ wg) * (x @ wu)) @ wd]
    if op == "pattern":
        it, b, f = w["iterations"], w["batch"], w["features"]
        p = w["pattern"]
        if p == "vmap":
            x = rand(it, b, f)
            fn = torch.vmap(lambda t: F.relu((t * t).sum(-1)) + 0.1)
            return lambda: [fn(x)]
        if p == "scan":
            xs = rand(it, b, f)
            carry0 = torch.zeros((), dtype=dt).to(device)

            def step(carry, x):
                s = x.sum()
                return carry + s, carry + s + (x @ x.T).sum()
            scan = getattr(getattr(torch, "func", None), "scan", None)
            if scan is not None:
                return lambda: list(scan(step, carry0, xs))
            # Older torch: the loop is traced into one graph (no device loop).
            def unrolled():
                carry, outs = carry0, []
                for i in range(it):
                    carry, y = step(carry, xs[i])
                    outs.append(y)
                return [carry] + outs
            return unrolled
        if p in ("for_loop", "for_loop_launch"):
            data = rand(b, f)
            trips = it * LOOP_FACTOR.get(w.get("size") or "small", 1)

            def loop():
                result = torch.zeros((), dtype=dt).to(device)
                for i in range(trips):
                    result = result + data[i % b].mean()
                return [result]
            if p == "for_loop":
                return loop
            # One launch per iteration: the graph is cut (and synchronised)
            # after every iteration, so each pays the host dispatch.
            return ("per_iteration", trips, lambda i: [data[i % b].mean()])
        raise ValueError("unknown pattern %s" % p)
    if op == "elementwise":
        a, b = rand(w["rows"], w["cols"]), rand(w["rows"], w["cols"])
        ops = {"add": lambda: a + b, "mul": lambda: a * b, "exp": lambda: torch.exp(a), "relu": lambda: F.relu(a),
               "gelu": lambda: F.gelu(a), "copy": lambda: a.clone(), "reduce_sum": lambda: a.sum(-1)}
        if w["opname"] not in ops:
            raise ValueError("unknown elementwise op %s" % w["opname"])
        f = ops[w["opname"]]
        return lambda: [f()]
    raise ValueError("unknown op %s" % op)


def execute(graph, xm):
    """One timed execution in microseconds."""
    t0 = time.perf_counter()
    if isinstance(graph, tuple):  # per-iteration launches
        _, trips, body = graph
        for i in range(trips):
            body(i)
            xm.mark_step()
            xm.wait_device_ops()
    else:
        graph()
        xm.mark_step()
        xm.wait_device_ops()
    return (time.perf_counter() - t0) * 1e6


def main():
    take_stdout()
    job = json.load(sys.stdin)
    work_dir = os.path.abspath(job.get("work_dir") or "nx-neuron-work")
    cache_dir = os.path.abspath(job.get("cache_dir") or os.path.join(work_dir, "cache"))
    use_cache = job.get("use_cache", True)
    os.makedirs(work_dir, exist_ok=True)
    os.makedirs(os.path.join(cache_dir, "index"), exist_ok=True)
    os.makedirs(os.path.join(cache_dir, "neffs"), exist_ok=True)
    # All of these must be set before torch-neuronx is imported.
    os.environ["NEURON_FRAMEWORK_DEBUG"] = "1"
    # The logical core: the runtime groups NEURON_LOGICAL_NC_CONFIG physical
    # cores, once per process, and the compiler must partition each graph
    # for as many (--lnc; the Neuron docs: the two may not differ).  nx-run
    # starts one driver per LNC its workloads ask for.
    lncs = sorted({int(w["lnc"]) for w in job["workloads"] if w.get("lnc")})
    if len(lncs) > 1:
        fatal("one driver runs one LNC, and these workloads ask for %s" % lncs)
    if lncs:
        os.environ["NEURON_LOGICAL_NC_CONFIG"] = str(lncs[0])
        os.environ["NEURON_CC_FLAGS"] = (os.environ.get("NEURON_CC_FLAGS", "") + " --lnc=%d" % lncs[0]).strip()
    # --no-cache: a throw-away compile cache inside the work directory,
    # removed when the run ends.
    scratch = None if use_cache else tempfile.mkdtemp(prefix="nocache-", dir=work_dir)
    compile_cache = os.path.join(cache_dir, "neuron-compile-cache") if use_cache else scratch
    os.environ["NEURON_COMPILE_CACHE_URL"] = compile_cache
    os.chdir(work_dir)
    try:
        run_all(job, work_dir, cache_dir, use_cache)
    finally:
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)


def run_all(job, work_dir, cache_dir, use_cache):
    try:
        import torch
        import torch.nn.functional as F
        import torch_xla.core.xla_model as xm
        import torch_neuronx
    except ImportError as e:
        fatal("torch-neuronx is not installed for %s (%s); see the README's 'On a Neuron instance'" % (sys.executable, e))
    try:
        device = xm.xla_device()
    except Exception as e:  # noqa: BLE001 - any failure here means no device
        fatal("no Neuron device: %s" % e)
    toolchain = "torch-neuronx %s, torch %s" % (getattr(torch_neuronx, "__version__", "?"), torch.__version__)
    try:
        import neuronxcc
        toolchain += ", neuronx-cc %s" % neuronxcc.__version__
    except ImportError:
        pass
    warmup, timed, target = int(job.get("warmup", 5)), int(job.get("timed", 20)), job.get("target", "")

    for index, w in enumerate(job["workloads"]):
        try:
            key = cache_key(w, job["shape_fields"], target, toolchain)
            index_file = os.path.join(cache_dir, "index", key + ".json")
            cached = use_cache and os.path.exists(index_file)
            graph = build(w, torch, F, device)
            before = neffs(work_dir)
            if len(before) > 200:
                # NEURON_FRAMEWORK_DEBUG keeps every NEFF here; nx keeps its own
                # copies in the cache, so old ones can go (globbing them slows
                # every workload down).
                for old in before:
                    os.remove(old)
                before = set()
            first_us = execute(graph, xm)  # compiles (or loads from the cache) and runs once
            new = sorted(neffs(work_dir) - before, key=os.path.getmtime)
            for _ in range(max(warmup - 1, 0)):
                execute(graph, xm)
            latencies = [execute(graph, xm) for _ in range(timed)]
            if not latencies:
                raise ValueError("no timed execution")
            steady = sorted(latencies)[len(latencies) // 2] if latencies else 0
            neff = ""
            if new:
                neff = os.path.join(cache_dir, "neffs", key + ".neff")
                shutil.copyfile(new[-1], neff)
                with open(index_file, "w") as f:
                    json.dump({"name": w.get("name"), "neff": neff, "compiled_from": new[-1]}, f)
            elif os.path.exists(index_file):
                neff = json.load(open(index_file)).get("neff", "")
            emit({"index": index, "latencies_us": latencies, "compile_ms": max(first_us - steady, 0) / 1e3,
                  "cached": cached, "neff": neff, "toolchain": toolchain})
        except Exception as e:  # noqa: BLE001 - one workload's failure must not stop the rest
            emit({"index": index, "error": "%s: %s" % (type(e).__name__, e)})


if __name__ == "__main__":
    main()
