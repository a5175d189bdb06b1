"""func: calls and returns."""

from __future__ import annotations

from xdsl.dialects import func

from xla_emit.interpreter.executor import Executor, Values
from xla_emit.interpreter.registry import OpImpls, impl, register_impls


@register_impls
class FuncImpls(OpImpls):
    """func.call runs the callee in a new frame; func.return hands its operands back."""

    @impl(func.CallOp)
    def run_call(self, ex: Executor, op: func.CallOp, args: Values) -> Values:
        return ex.call_function(op.callee.string_value(), args, op)

    @impl(func.ReturnOp)
    def run_return(self, _ex: Executor, _op: func.ReturnOp, args: Values) -> Values:
        return args
