"""Which spelling xla-emit-opt keeps for the output: `module_spelling` of the input."""

from xla_emit.passes.gpu.respell import module_spelling

from xla_emit.ir import make_context, parse_mlir


def _spelling(text: str) -> str | None:
    module, _ = parse_mlir(text, "<test>", make_context())
    return module_spelling(module)


def test_seed_spelled_op_makes_the_module_seed_spelled() -> None:
    text = """
    func.func @f(%a: index) -> (index, index) {
      %r = xla.apply_indexing #xla.indexing_map<"(d0) -> (d0 + 1), domain: d0 in [0, 3]">(%a)
      %s = xla_gpu.apply_indexing #xla_gpu.indexing_map<"(d0) -> (d0), domain: d0 in [0, 3]">(%a)
      func.return %r, %s : index, index
    }
    """
    assert _spelling(text) == "xla_gpu"


def test_todays_ops_only_make_it_todays() -> None:
    text = """
    func.func @f(%a: index) -> index {
      %r = xla.apply_indexing #xla.indexing_map<"(d0) -> (d0 + 1), domain: d0 in [0, 3]">(%a)
      func.return %r : index
    }
    """
    assert _spelling(text) == "xla"


def test_no_target_neutral_op_has_no_spelling() -> None:
    assert _spelling("func.func @f(%a: index) -> index {\n  func.return %a : index\n}") is None
