import torch
print(torch.numel(torch.zeros(2, 3)), torch.is_floating_point(torch.zeros(2)), torch.is_complex(torch.zeros(1)))
print(torch.is_signed(torch.tensor([1], dtype=torch.uint8)), torch.is_signed(torch.tensor([1])), torch.is_signed(torch.tensor([True])))
print(torch.is_nonzero(torch.tensor([0.])), torch.is_nonzero(torch.tensor(3)), torch.is_same_size(torch.zeros(2), torch.zeros(3)))
for bad in ("torch.is_nonzero(torch.tensor([]))", "torch.is_nonzero(torch.tensor([1, 2]))", "torch.numel(3)",
            "torch.is_floating_point(2.)", "torch.broadcast_shapes((2, 1), (3, 2))", "torch.set_num_threads(0)",
            "torch.promote_types(torch.int32, 3)"):
    try:
        eval(bad)
    except (RuntimeError, TypeError) as e:
        print(type(e).__name__, e)
print(torch.promote_types(torch.int32, torch.float16), torch.promote_types(torch.uint8, torch.int8), torch.promote_types(torch.bool, torch.int16))
print(torch.can_cast(torch.float32, torch.int32), torch.can_cast(torch.int64, torch.float16), torch.can_cast(torch.int8, torch.bool))
print(torch.result_type(torch.tensor([1]), 1.0), torch.result_type(torch.tensor([1], dtype=torch.int8), torch.tensor(1000)), torch.result_type(torch.tensor([1.], dtype=torch.float16), torch.tensor(1., dtype=torch.float64)), torch.result_type(torch.tensor(True), 2))
print(torch.broadcast_shapes((2, 1), (3,)), torch.broadcast_shapes(2, (3, 1)), torch.broadcast_shapes())
print(torch.get_num_threads() >= 1)
torch.set_num_threads(torch.get_num_threads())
print(torch.are_deterministic_algorithms_enabled(), torch.is_deterministic_algorithms_warn_only_enabled())
torch.use_deterministic_algorithms(True)
print(torch.are_deterministic_algorithms_enabled())
torch.use_deterministic_algorithms(False)
print(torch.is_anomaly_enabled())
torch.set_anomaly_enabled(True)
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
torch.set_anomaly_enabled(False)
print(torch.get_float32_matmul_precision())
torch.set_float32_matmul_precision("high")
print(torch.get_float32_matmul_precision())
torch.set_float32_matmul_precision("highest")
print(torch.is_inference(torch.zeros(1)))
