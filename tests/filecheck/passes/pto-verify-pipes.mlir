// RUN: xla-emit-opt %s --split-input-file --verify-diagnostics -p 'pto-verify-pipes{target-arch=a5}'

// Both sides name the buffer `fifo`, owned by @vector: one logical pipe. The cube
// pushes with a split and the vector pops without one.
module {
  func.func @cube(%acc: !pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major, fractal=1024>) {
    %fifo = pto.import_reserved_buffer {name = "fifo", peer_func = @vector} -> i32
    pto.aic_initialize_pipe {dir_mask = 1, slot_size = 1024} (c2v_consumer_buf = %fifo : i32, v2c_consumer_buf = %fifo : i32)
    pto.tpush_to_aiv(%acc : !pto.tile_buf<acc, 16x16xf32, blayout=col_major, slayout=row_major, fractal=1024>) {split = 1}
    return
  }
  func.func @vector() {
    %fifo = pto.reserve_buffer {name = "fifo", size = 4096, location = #pto.address_space<vec>, auto = true} -> i32
    // expected-error@+1 {{conflicting pipe split usage across peer pipe init ops}}
    pto.aiv_initialize_pipe {dir_mask = 1, slot_size = 1024} (c2v_consumer_buf = %fifo : i32, v2c_consumer_buf = %fifo : i32)
    %got = pto.tpop_from_aic {split = 0} -> !pto.tile_buf<vec, 16x16xf32>
    pto.tfree_from_aic {split = 0}
    return
  }
}

// -----

// The vector side's buffer is a plain argument: nothing says which peer it pairs with.
module {
  func.func @vector(%buf: i32) {
    // expected-error@+1 {{requires local_addr to come from pto.reserve_buffer or pto.import_reserved_buffer when 'flag_base' is not explicit}}
    %pipe = pto.initialize_l2l_pipe {dir_mask = 1, slot_size = 1024, slot_num = 8}(%buf : i32) -> !pto.pipe
    return
  }
}

// -----

// An explicit flag_base pairs it by hand.
module {
  func.func @vector(%buf: i32) {
    %pipe = pto.initialize_l2l_pipe {dir_mask = 1, slot_size = 1024, slot_num = 8, flag_base = 0 : i32}(%buf : i32) -> !pto.pipe
    return
  }
}
