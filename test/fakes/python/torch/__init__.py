"""Fake torch for nx's tests: tensors carry shape and dtype, ops are recorded into the
pending XLA graph (see torch_xla.core.xla_model).  No arithmetic is done."""
__version__ = "2.9.1+fake"


class dtype:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "torch." + self.name


bfloat16, float16, float32, float8_e4m3fn = dtype("bfloat16"), dtype("float16"), dtype("float32"), dtype("float8_e4m3fn")

GRAPH = []  # ops since the last mark_step: (op, shapes)


def _record(op, *tensors):
    GRAPH.append((op, tuple(t.shape for t in tensors if isinstance(t, Tensor))))


class Tensor:
    def __init__(self, shape, dt=float32, device="cpu"):
        self.shape, self.dtype, self.device = tuple(shape), dt, device

    def to(self, what):
        if isinstance(what, dtype):
            return Tensor(self.shape, what, self.device)
        return Tensor(self.shape, self.dtype, str(what))

    def _binary(self, op, other):
        _record(op, self, other)
        shape = self.shape if isinstance(other, (int, float)) or len(self.shape) >= len(other.shape) else other.shape
        return Tensor(shape, self.dtype, self.device)

    def __matmul__(self, other):
        if self.shape[-1] != other.shape[0]:
            raise RuntimeError("mat1 and mat2 shapes cannot be multiplied (%s and %s)" % (self.shape, other.shape))
        _record("matmul", self, other)
        return Tensor(self.shape[:-1] + other.shape[1:], self.dtype, self.device)

    def __mul__(self, other):
        return self._binary("mul", other)

    def __add__(self, other):
        return self._binary("add", other)

    __radd__ = __add__
    __rmul__ = __mul__

    def sum(self, dim=None):
        _record("sum", self)
        if dim is None:
            return Tensor((), self.dtype, self.device)
        dim = dim % len(self.shape)
        return Tensor(self.shape[:dim] + self.shape[dim + 1:], self.dtype, self.device)

    def mean(self):
        _record("mean", self)
        return Tensor((), self.dtype, self.device)

    def clone(self):
        _record("copy", self)
        return Tensor(self.shape, self.dtype, self.device)

    def __getitem__(self, i):
        _record("index", self)
        return Tensor(self.shape[1:], self.dtype, self.device)

    @property
    def T(self):
        _record("transpose", self)
        return Tensor(tuple(reversed(self.shape)), self.dtype, self.device)


def randn(*shape, dtype=float32):
    return Tensor(shape, dtype)


def zeros(shape, dtype=float32):
    return Tensor(tuple(shape) if isinstance(shape, (tuple, list)) else (shape,), dtype)


def exp(t):
    _record("exp", t)
    return Tensor(t.shape, t.dtype, t.device)


def vmap(fn):
    def batched(x):
        inner = fn(Tensor(x.shape[1:], x.dtype, x.device))
        return Tensor((x.shape[0],) + inner.shape, inner.dtype, inner.device)
    return batched


class func:  # torch.func
    @staticmethod
    def scan(step, carry, xs):
        _record("while", xs)
        outs = []
        for i in range(xs.shape[0]):
            carry, y = step(carry, xs[i])
            outs.append(y)
        return carry, Tensor((xs.shape[0],), xs.dtype, xs.device)
