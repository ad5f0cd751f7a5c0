"""Fake torch_xla.core.xla_model: a lazily built graph that compiles on first sight
(neuronx-cc) and runs at mark_step(), as torch-neuronx documents."""
import hashlib
import os
import time

import torch


def xla_device():
    if os.environ.get("FAKE_NEURON_NO_DEVICE"):
        raise RuntimeError("No Neuron device found (nrt_init failed)")
    return "xla:0"


def _neff_bytes(signature):
    profile = os.environ.get("FAKE_NEURON_PROFILE_JSON", "")
    return ("NEFF-FAKE\ngraph=%s\nprofile=%s\n" % (signature, profile)).encode()


def _lnc():
    """The LNC the compiler partitions for (--lnc in NEURON_CC_FLAGS) and the
    runtime's (NEURON_LOGICAL_NC_CONFIG); the Neuron docs: they must agree."""
    compiler = None
    for flag in os.environ.get("NEURON_CC_FLAGS", "").split():
        if flag.startswith("--lnc="):
            compiler = flag.split("=", 1)[1]
    runtime = os.environ.get("NEURON_LOGICAL_NC_CONFIG")
    if compiler and runtime and compiler != runtime:
        raise RuntimeError("NEFF compiled for LNC=%s cannot load at NEURON_LOGICAL_NC_CONFIG=%s" % (compiler, runtime))
    return compiler or runtime or "default"


def mark_step():
    if not torch.GRAPH:
        return
    lnc = _lnc()
    # The compiler's output depends on the LNC it partitions for.
    signature = hashlib.sha1((repr(torch.GRAPH) + lnc).encode()).hexdigest()[:16]
    torch.GRAPH.clear()
    cache = os.environ.get("NEURON_COMPILE_CACHE_URL", "/var/tmp/neuron-compile-cache")
    os.makedirs(cache, exist_ok=True)
    cached = os.path.join(cache, "MODULE_%s.neff" % signature)
    if not os.path.exists(cached):
        log = os.environ.get("FAKE_NEURON_LOG")
        if log:
            with open(log, "a") as f:
                f.write("neuronx-cc compile %s lnc=%s\n" % (signature, lnc))
        # neuronx-cc reports on stdout, as the real one does.
        print(".\nCompiler status PASS", flush=True)
        with open(cached, "wb") as f:
            f.write(_neff_bytes(signature))
        if os.environ.get("NEURON_FRAMEWORK_DEBUG") == "1":
            with open("neff_%s.neff" % signature, "wb") as f:
                f.write(_neff_bytes(signature))
    time.sleep(float(os.environ.get("FAKE_NEURON_EXEC_US", "50")) * 1e-6)


def wait_device_ops():
    pass
