from __future__ import annotations

import pytest

from xla_emit.diagnostics import UserError
from xla_emit.hlo.fusion_configs import (
    BlockLevelConfig,
    TritonGemmConfig,
    block_level_config,
    fusion_backend_kind,
    triton_gemm_config,
    triton_launch_config,
)
from xla_emit.hlo.parser import parse_hlo_module

_MODULE = """HloModule m

%fused (p: f32[16,64]) -> f32[16,64] {
  %p = f32[16,64]{1,0} parameter(0)
  ROOT %n = f32[16,64]{1,0} negate(%p)
}

ENTRY %main (x: f32[16,64]) -> f32[16,64] {
  %x = f32[16,64]{1,0} parameter(0)
  ROOT %f = f32[16,64]{1,0} fusion(%x), kind=kCustom, calls=%fused, backend_config=CONFIG
}
"""


def _fusion(config: str):
    module = parse_hlo_module(_MODULE.replace("CONFIG", config), "m.hlo")
    return module.entry.root


# The spelling XLA prints (jax 0.10.2 corpus, transformer_block.hlo): integers as strings.
_SOFTMAX = (
    '{"operation_queue_id":"0","fusion_backend_config":{"kind":"__triton",'
    '"block_level_fusion_config":{"num_warps":"1","output_tiles":[{"sizes":["1","8"]}],'
    '"num_ctas":1,"num_stages":1,"is_tma_allowed":false}}}'
)
_GEMM = (
    '{"fusion_backend_config":{"kind":"__triton_gemm","triton_gemm_config":'
    '{"block_m":"64","block_n":"32","block_k":"16","split_k":"4","num_stages":"3",'
    '"num_warps":"4","num_ctas":"1"}}}'
)


def test_block_level_config_of_a_softmax_fusion() -> None:
    fusion = _fusion(_SOFTMAX)
    assert fusion_backend_kind(fusion) == "__triton"
    assert block_level_config(fusion) == BlockLevelConfig(((1, 8),), 1, 1, 1)
    assert triton_gemm_config(fusion) is None


def test_triton_gemm_config() -> None:
    fusion = _fusion(_GEMM)
    assert fusion_backend_kind(fusion) == "__triton_gemm"
    assert triton_gemm_config(fusion) == TritonGemmConfig(64, 32, 16, 4, 3, 4, 1)


def test_a_gemm_config_launches_block_m_by_block_n_tiles() -> None:
    # The output f32[16,64]: tiles of 64 x 32 (block_m x block_n), the config's warps.
    assert triton_launch_config(_fusion(_GEMM)) == BlockLevelConfig(((64, 32),), 4, 3, 1)
    # A block_level_fusion_config is the launch config where there is one.
    assert triton_launch_config(_fusion(_SOFTMAX)) == block_level_config(_fusion(_SOFTMAX))


def test_a_fusion_without_backend_config_has_no_kind() -> None:
    module = parse_hlo_module(_MODULE.replace(", backend_config=CONFIG", ""), "m.hlo")
    assert fusion_backend_kind(module.entry.root) is None


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ('{"fusion_backend_config":{"kind":"__triton"}}', "has no block_level_fusion_config"),
        (
            '{"fusion_backend_config":{"kind":"__triton","block_level_fusion_config":'
            '{"output_tiles":[{"sizes":["1","x"]}]}}}',
            "output_tiles must be an integer, but got 'x'",
        ),
        (
            '{"fusion_backend_config":{"kind":"__triton","block_level_fusion_config":'
            '{"num_warps":"0","output_tiles":[{"sizes":["1"]}]}}}',
            "num_warps must be positive, but got 0",
        ),
        (
            '{"fusion_backend_config":{"kind":"__triton_gemm","triton_gemm_config":'
            '{"block_m":"64"}}}',
            "triton_gemm_config has no block_n, block_k",
        ),
    ],
)
def test_bad_configs_are_located_errors(config: str, message: str) -> None:
    fusion = _fusion(config)
    with pytest.raises(UserError, match=message) as caught:
        if "gemm" in config:
            triton_gemm_config(fusion)
        else:
            block_level_config(fusion)
    assert caught.value.location is not None and caught.value.location.line == 10
    assert "fusion 'f'" in caught.value.message
