"""The Vulkan runtime: ``vulkan:N`` devices through the ``vulkan`` package (cffi bindings).

Layer: ``_devices``. Imports nothing above it; the ``vulkan`` package only in ``discover``.

What it does:

- discovery of every physical device with a compute queue (``DeviceInfo`` from its
  properties, limits and features: float64, work-group size, shared memory, memory size);
- buffers in one allocation each, pooled by size (``MemoryPool``); host-visible memory is
  mapped once and copies are plain memory copies (lavapipe, integrated GPUs); device-local
  memory that the host cannot see is reached through a staging buffer;
- programs: a shader module and compute pipeline per kernel (pipelines through a
  ``VkPipelineCache`` kept on disk in the kernel cache, ``vulkan/<model>.pipelines``); where
  the device has ``bufferDeviceAddress`` and a storage-buffer range below
  ``ADDRESSES_BELOW`` (lavapipe: 128 MiB), or ``ZYXARRAY_VULKAN_ADDRESSES=1``, every buffer
  takes a device address and kernels get the addresses with their int arguments (no
  descriptor per buffer: buffers up to ``maxMemoryAllocationSize``), else one
  storage-buffer binding per kernel buffer; the int64 and float arguments in push constants
  or, where they do not fit, two argument buffers; a push constant that offsets the
  work-group id so that a grid beyond ``maxComputeWorkGroupCount`` runs as several
  dispatches;
- launches are submitted asynchronously, each signalling the next value of a timeline
  semaphore (the project's events: ``VulkanEvent``); a submission keeps its buffers, command
  buffer and descriptor set until the device passes its value; reads wait for the buffer's
  event; every command buffer opens with a barrier, so work runs in submission order.
"""

from __future__ import annotations

import atexit
import contextlib
import dataclasses
import os
import struct
import threading
import time
from typing import Any

import numpy as np

from .. import _debug, _env
from . import cache
from .base import COMPLETED, Buffer, Device, DeviceInfo, Event, MemoryPool, Program, byte_range

_vk: Any = None
#: devices whose maxStorageBufferRange is below this take buffers by address by default
ADDRESSES_BELOW = 1 << 30
#: the pipeline cache goes to disk at exit, and at most this often (seconds) before
CACHE_SAVE_EVERY = 10.0
#: VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT and VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT (Vulkan
#: 1.2; the package's names for them are None)
_USAGE_ADDRESS, _ALLOCATE_ADDRESS = 0x20000, 0x2


def _load() -> Any:
    global _vk
    if _vk is None:
        import vulkan
        _vk = vulkan
    return _vk


class VulkanEvent(Event):
    """A point on the device's timeline semaphore."""

    __slots__ = ("device", "value")

    def __init__(self, device: VulkanDevice, value: int) -> None:
        self.device = device
        self.value = value

    def wait(self) -> None:
        self.device.wait_value(self.value)

    def done(self) -> bool:
        return self.value <= self.device.submitted and self.device.completed() >= self.value


def _check(result: int, what: str) -> None:
    """A raw Vulkan call's VkResult: out of memory is a MemoryError, another error raised."""
    if result == 0:
        return
    if result in (-1, -2):       # VK_ERROR_OUT_OF_HOST_MEMORY, VK_ERROR_OUT_OF_DEVICE_MEMORY
        raise MemoryError(f"{what}: the Vulkan device is out of memory (VkResult {result})")
    raise RuntimeError(f"{what} failed (VkResult {result})")


#: launches recorded into one command buffer before it is submitted
_BATCH = 32
#: an idle device gets the open batch at once unless a batch went less than this ago (s):
#: launches in quick succession share a submission (NVIDIA's costs ~20 us)
_IDLE_GAP = 100e-6


class _Batch:
    """A command buffer being recorded: the timeline value its submission will signal, what
    its work keeps alive and runs when complete."""

    __slots__ = ("cb", "count", "keep", "release", "value")

    def __init__(self, cb: Any, value: int) -> None:
        self.cb = cb
        self.value = value
        self.keep: list[Any] = []
        self.release: list[Any] = []
        self.count = 0


#: buffers up to this size share blocks of this size (sub-allocation)
_SLAB_MAX = 1 << 20
_BLOCK = 16 << 20
#: buffers up to this size are host-mapped device-local memory on a discrete GPU
_SMALL = 64 << 10
#: bytes a host copy moves through the staging buffer per step (the buffer's size)
_STAGE = 32 << 20
#: launches whose device times can be pending at once (timestamp query pairs)
_QUERIES = 256


class _LaunchStructs:
    """The per-launch path in raw calls on structs built once (the ``vulkan`` package builds
    each struct in Python, most of a launch's cost otherwise): begin info, the barriers that
    open and close each command buffer, the submit info whose timeline value is set in
    place."""

    def __init__(self, device: VulkanDevice) -> None:
        vk = _vk
        from vulkan._vulkan import ffi, lib
        self.ffi, self.lib = ffi, lib
        self.all_stages = vk.VK_PIPELINE_STAGE_ALL_COMMANDS_BIT
        self.host_stage = vk.VK_PIPELINE_STAGE_HOST_BIT
        every = (vk.VK_ACCESS_SHADER_READ_BIT | vk.VK_ACCESS_SHADER_WRITE_BIT
                 | vk.VK_ACCESS_TRANSFER_READ_BIT | vk.VK_ACCESS_TRANSFER_WRITE_BIT
                 | vk.VK_ACCESS_HOST_READ_BIT | vk.VK_ACCESS_HOST_WRITE_BIT)
        self.begin_info = ffi.new("VkCommandBufferBeginInfo*", {
            "sType": vk.VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
            "flags": vk.VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT})
        self.open_barrier = ffi.new("VkMemoryBarrier*", {
            "sType": vk.VK_STRUCTURE_TYPE_MEMORY_BARRIER, "srcAccessMask": every,
            "dstAccessMask": every})
        self.close_barrier = ffi.new("VkMemoryBarrier*", {
            "sType": vk.VK_STRUCTURE_TYPE_MEMORY_BARRIER,
            "srcAccessMask": vk.VK_ACCESS_SHADER_WRITE_BIT | vk.VK_ACCESS_TRANSFER_WRITE_BIT,
            "dstAccessMask": vk.VK_ACCESS_HOST_READ_BIT})
        self.value = ffi.new("uint64_t[1]")
        self.counter = ffi.new("uint64_t*")
        self.command = ffi.new("VkCommandBuffer[1]")
        self.semaphore = ffi.new("VkSemaphore[1]", [device.timeline])
        self.timeline_info = ffi.new("VkTimelineSemaphoreSubmitInfo*", {
            "sType": vk.VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
            "signalSemaphoreValueCount": 1, "pSignalSemaphoreValues": self.value})
        self.submit_info = ffi.new("VkSubmitInfo*", {
            "sType": vk.VK_STRUCTURE_TYPE_SUBMIT_INFO, "pNext": self.timeline_info,
            "commandBufferCount": 1, "pCommandBuffers": self.command,
            "signalSemaphoreCount": 1, "pSignalSemaphores": self.semaphore})


class _Allocation:
    """A VkBuffer, its memory, and the host mapping where the memory is host-visible."""

    __slots__ = ("address", "block", "buffer", "freed", "memory", "offset", "size", "view")

    def __init__(self, buffer: Any, memory: Any, size: int, view: np.ndarray | None) -> None:
        self.address = 0        # (its device address, where kernels take them)
        self.buffer = buffer
        self.memory = memory
        self.size = size
        self.view = view
        self.freed = False
        self.block: _Block | None = None     # (sub-allocated: its block and offset there)
        self.offset = 0


class _Block:
    """A ``_BLOCK``-byte piece of device memory cut into slots of one size."""

    __slots__ = ("free", "memory", "slot", "view")

    def __init__(self, memory: Any, view: np.ndarray | None, slot: int) -> None:
        self.memory = memory
        self.view = view
        self.slot = slot
        self.free = list(range(_BLOCK - slot, -1, -slot))     # (offsets; lowest popped first)


def _signed(address: int) -> int:
    """A device address as the int64 a kernel argument holds (the same 64 bits)."""
    return address - (1 << 64) if address >= 1 << 63 else address


class VulkanProgram(Program):
    def __init__(self, device: VulkanDevice, name: str, source: Any, meta: dict,
                 n_buffers: int) -> None:
        super().__init__(name, str(source))
        vk = _vk
        self.device = device
        self.local_size = int(meta.get("local_size", 1))
        self.groups_arg = meta.get("groups_arg")
        self.float_dtype = np.dtype(np.float64 if meta.get("fp64", True) else np.float32)
        # the arguments pushed with the group offset (ints, floats), or in two buffers
        self.arguments = getattr(source, "arguments", None)
        # buffers by address (``meta["addresses"]``): their addresses follow the ints
        self.addressed = bool(meta.get("addresses"))
        self.n_bindings = (0 if self.addressed else n_buffers) + \
            (2 if self.arguments is None else 0)
        self.push_size = 4 if self.arguments is None else \
            8 + 8 * self.arguments[0] + self.float_dtype.itemsize * self.arguments[1]
        if self.arguments is not None:
            self.push_format = f"<{self.arguments[0]}q{self.arguments[1]}" + \
                ("d" if self.float_dtype.itemsize == 8 else "f")
        self.bound: dict[Any, tuple] = {}        # descriptor set -> the buffers it holds
        self.set_arrays: dict[Any, Any] = {}     # descriptor set -> a cffi array of it
        d = device.handle
        code = source.binary
        self.module = vk.vkCreateShaderModule(d, vk.VkShaderModuleCreateInfo(
            codeSize=len(code), pCode=code), None)
        bindings = [vk.VkDescriptorSetLayoutBinding(
            binding=i, descriptorType=vk.VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, descriptorCount=1,
            stageFlags=vk.VK_SHADER_STAGE_COMPUTE_BIT) for i in range(self.n_bindings)]
        self.set_layout = vk.vkCreateDescriptorSetLayout(d, vk.VkDescriptorSetLayoutCreateInfo(
            bindingCount=len(bindings), pBindings=bindings), None)
        push = vk.VkPushConstantRange(stageFlags=vk.VK_SHADER_STAGE_COMPUTE_BIT, offset=0,
                                      size=self.push_size)
        self.layout = vk.vkCreatePipelineLayout(d, vk.VkPipelineLayoutCreateInfo(
            setLayoutCount=1, pSetLayouts=[self.set_layout], pushConstantRangeCount=1,
            pPushConstantRanges=[push]), None)
        stage = vk.VkPipelineShaderStageCreateInfo(stage=vk.VK_SHADER_STAGE_COMPUTE_BIT,
                                                   module=self.module, pName="main")
        self.pipeline = vk.vkCreateComputePipelines(d, device.pipeline_cache, 1, [
            vk.VkComputePipelineCreateInfo(stage=stage, layout=self.layout)], None)[0]
        device.pipeline_made()
        self.free_sets: list[Any] = []      # descriptor sets no launch in flight uses

    def _descriptor_set(self) -> Any:
        """A descriptor set for one launch: a free one, else from a new pool of 16."""
        if self.free_sets:
            return self.free_sets.pop()
        vk = _vk
        d = self.device.handle
        pool = vk.vkCreateDescriptorPool(d, vk.VkDescriptorPoolCreateInfo(
            maxSets=16, poolSizeCount=1, pPoolSizes=[vk.VkDescriptorPoolSize(
                type=vk.VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                descriptorCount=16 * self.n_bindings)]), None)
        self.free_sets.extend(vk.vkAllocateDescriptorSets(d, vk.VkDescriptorSetAllocateInfo(
            descriptorPool=pool, descriptorSetCount=16, pSetLayouts=[self.set_layout] * 16)))
        return self.free_sets.pop()

    def __call__(self, buffers: list[Buffer], ints: list[int], floats: list[float]) -> Event:
        if self.groups_arg is None:
            raise ValueError(f"{self.name}: compiled without launch metadata")
        groups = int(ints[self.groups_arg])
        if groups <= 0:
            return COMPLETED
        dev = self.device
        args: list[Buffer] = []
        if self.addressed:
            ints = list(ints) + [_signed(b.handle.address) for b in buffers]
        if self.arguments is None:
            values = (np.asarray(ints if ints else [0], np.int64),
                      np.asarray(list(floats) + [0.0, 0.0], self.float_dtype)[
                          :max(len(floats), 2)])
            args = [dev.alloc(v.nbytes) for v in values]
            for buf, v in zip(args, values):
                dev.copy_in(buf, v)
            pushed = b""
        else:
            n_ints, n_floats = self.arguments
            pushed = struct.pack(self.push_format, *ints[:n_ints], *floats[:n_floats])
        with dev.lock:
            ds = self._descriptor_set() if self.n_bindings else None
            if ds is not None:
                self._bind(ds, args if self.addressed else list(buffers) + args)
            timer = dev.timer() if _debug.enabled("profile") else None
            # the buffers and the set stay with the submission until it completes
            release = None if ds is None else (lambda: self.free_sets.append(ds))
            if timer is not None:
                release = self._timed(timer, release)
            return dev.submit(self._record(ds, groups, pushed, timer), (buffers, args),
                              release)

    def _timed(self, slot: int, release: Any) -> Any:
        """A release that also logs the launch's device time (the ``profile`` topic)."""
        def done() -> None:
            if release is not None:
                release()
            seconds = self.device.elapsed(slot)
            self.device.kernel_times.setdefault(self.name, []).append(seconds)
            _debug.log("profile", f"{self.device.info.name} {self.name}: "
                                  f"{seconds * 1e6:.1f} us on the device")
        return done

    def _bind(self, ds: Any, buffers: list[Buffer]) -> None:
        vk = _vk
        ffi = self.device._launch.ffi
        n = len(buffers)
        # (pooled buffers come back: the set often holds these already; the allocations
        # are kept here, so identity means the same VkBuffer unless it has been freed)
        handles = tuple(b.handle for b in buffers)
        held = self.bound.get(ds)
        if held is not None and len(held) == n and all(
                a is h and not h.freed for a, h in zip(held, handles)):
            return
        self.bound[ds] = handles
        infos = ffi.new("VkDescriptorBufferInfo[]", n)
        writes = ffi.new("VkWriteDescriptorSet[]", n)
        for i, b in enumerate(buffers):
            info = infos[i]
            info.buffer = b.handle.buffer
            info.offset = 0
            info.range = b.handle.size
            w = writes[i]
            w.sType = vk.VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET
            w.dstSet = ds
            w.dstBinding = i
            w.descriptorCount = 1
            w.descriptorType = vk.VK_DESCRIPTOR_TYPE_STORAGE_BUFFER
            w.pBufferInfo = infos + i
        self.device._launch.lib.vkUpdateDescriptorSets(self.device.handle, n, writes, 0,
                                                       ffi.NULL)

    def _record(self, ds: Any, groups: int, pushed: bytes, timer: int | None = None) -> Any:
        vk = _vk
        dev = self.device
        fast = dev._launch
        lib, ffi = fast.lib, fast.ffi
        cb = dev.begin()
        if timer is not None:
            lib.vkCmdResetQueryPool(cb, dev.queries, 2 * timer, 2)
            lib.vkCmdWriteTimestamp(cb, vk.VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, dev.queries,
                                    2 * timer)
        compute = vk.VK_PIPELINE_BIND_POINT_COMPUTE
        lib.vkCmdBindPipeline(cb, compute, self.pipeline)
        if ds is not None:
            sets = self.set_arrays.get(ds)
            if sets is None:
                sets = self.set_arrays[ds] = ffi.new("VkDescriptorSet[1]", [ds])
            lib.vkCmdBindDescriptorSets(cb, compute, self.layout, 0, 1, sets, 0, ffi.NULL)
        limit = dev.max_groups
        for base in range(0, groups, limit):
            head = base.to_bytes(4, "little") + (b"" if self.arguments is None else bytes(4))
            lib.vkCmdPushConstants(cb, self.layout, vk.VK_SHADER_STAGE_COMPUTE_BIT, 0,
                                   self.push_size, ffi.from_buffer(head + pushed))
            lib.vkCmdDispatch(cb, min(limit, groups - base), 1, 1)
        if timer is not None:
            lib.vkCmdWriteTimestamp(cb, vk.VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, dev.queries,
                                    2 * timer + 1)
        return cb


class VulkanDevice(Device):
    caches_rendered = True      # (SPIR-V is emitted in Python: the disk keeps it)

    def __init__(self, index: int, instance: Any, physical: Any) -> None:
        vk = _vk
        self.index = index
        self.instance = instance
        self.physical = physical
        props = vk.vkGetPhysicalDeviceProperties(physical)
        feats = vk.vkGetPhysicalDeviceFeatures(physical)
        limits = props.limits
        families = vk.vkGetPhysicalDeviceQueueFamilyProperties(physical)
        self.family = next(i for i, f in enumerate(families)
                           if f.queueFlags & vk.VK_QUEUE_COMPUTE_BIT)
        v11 = vk.VkPhysicalDeviceVulkan11Features(storageBuffer16BitAccess=True)
        have12 = vk.VkPhysicalDeviceVulkan12Features()
        vk.vkGetPhysicalDeviceFeatures2(physical, vk.VkPhysicalDeviceFeatures2(pNext=have12))
        # buffer device addresses: kernels reach their buffers by address, so a buffer may
        # be larger than maxStorageBufferRange and a kernel may read more buffers than a
        # stage can bind. By default only where that range is small (lavapipe's 128 MiB;
        # NVIDIA's is 4 GiB, and its driver failed pipelines of integer ``sign`` kernels
        # taking addresses: see docs/design.md); ZYXARRAY_VULKAN_ADDRESSES=1 or 0 decides.
        wanted = _env.get(_env.VULKAN_ADDRESSES)
        self.addresses = bool(have12.bufferDeviceAddress) and (
            wanted == "1" if wanted in ("0", "1") else
            int(limits.maxStorageBufferRange) < ADDRESSES_BELOW)
        v12 = vk.VkPhysicalDeviceVulkan12Features(storageBuffer8BitAccess=True, shaderInt8=True,
                                                  timelineSemaphore=True, pNext=v11,
                                                  bufferDeviceAddress=self.addresses)
        enabled = vk.VkPhysicalDeviceFeatures(shaderFloat64=bool(feats.shaderFloat64),
                                              shaderInt64=True, shaderInt16=True)
        queue = vk.VkDeviceQueueCreateInfo(queueFamilyIndex=self.family, queueCount=1,
                                           pQueuePriorities=[1.0])
        self.handle = vk.vkCreateDevice(physical, vk.VkDeviceCreateInfo(
            pNext=v12, queueCreateInfoCount=1, pQueueCreateInfos=[queue],
            pEnabledFeatures=enabled), None)
        self.queue = vk.vkGetDeviceQueue(self.handle, self.family, 0)
        self.command_pool = vk.vkCreateCommandPool(self.handle, vk.VkCommandPoolCreateInfo(
            flags=vk.VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
            queueFamilyIndex=self.family), None)
        self.free_commands: list[Any] = []
        kind = vk.VkSemaphoreTypeCreateInfo(semaphoreType=vk.VK_SEMAPHORE_TYPE_TIMELINE,
                                            initialValue=0)
        self.timeline = vk.vkCreateSemaphore(self.handle, vk.VkSemaphoreCreateInfo(pNext=kind),
                                             None)
        self._launch = _LaunchStructs(self)
        self.queries: Any = None               # (timestamp queries, made when profiling)
        self.next_query = 0
        self.kernel_times: dict[str, list[float]] = {}   # program name -> device seconds
        self.timestamp_period = float(limits.timestampPeriod)
        self.submitted = 0          # the timeline value the last submission signals
        self.batch: _Batch | None = None     # work recorded, not submitted yet
        self.flushed = 0.0                   # when the last batch was submitted
        # submitted batches: (value, command buffer, what they keep, releases to run)
        self.in_flight: list[tuple[int, Any, list, list]] = []
        self.lock = threading.RLock()
        memory = vk.vkGetPhysicalDeviceMemoryProperties(physical)
        self.memory_types = [(memory.memoryTypes[i].propertyFlags,
                              memory.memoryTypes[i].heapIndex)
                             for i in range(memory.memoryTypeCount)]
        total = max((memory.memoryHeaps[i].size for i in range(memory.memoryHeapCount)
                     if memory.memoryHeaps[i].flags & vk.VK_MEMORY_HEAP_DEVICE_LOCAL_BIT),
                    default=0)
        self.max_groups = int(limits.maxComputeWorkGroupCount[0])
        name = vk.ffi.string(props.deviceName).decode() if not isinstance(
            props.deviceName, str) else props.deviceName
        self.info = DeviceInfo(
            name=f"vulkan:{index}", kind="vulkan", language="spirv",
            description=f"{name} (Vulkan {props.apiVersion >> 22}."
                        f"{(props.apiVersion >> 12) & 0x3FF})",
            float64=bool(feats.shaderFloat64), float16=False, complex=True,
            compute_units=_compute_units(physical, props),
            max_work_group=int(min(limits.maxComputeWorkGroupInvocations,
                                   limits.maxComputeWorkGroupSize[0])),
            local_memory=int(limits.maxComputeSharedMemorySize), simd_lanes=1,
            style="threads", launch_bounds=True, total_memory=int(total))
        self.storage_range = int(limits.maxStorageBufferRange)
        self.max_buffer = self.storage_range
        if self.addresses:      # (then the largest allocation is the limit)
            m3 = vk.VkPhysicalDeviceMaintenance3Properties()
            vk.vkGetPhysicalDeviceProperties2(physical, vk.VkPhysicalDeviceProperties2(
                pNext=m3))
            self.max_buffer = int(m3.maxMemoryAllocationSize)
        push_bytes = int(limits.maxPushConstantsSize)
        controls = vk.VkPhysicalDeviceFloatControlsProperties()
        vk.vkGetPhysicalDeviceProperties2(physical, vk.VkPhysicalDeviceProperties2(
            pNext=controls))
        float_controls = []
        for width, denorm, signed in ((32, controls.shaderDenormPreserveFloat32,
                                       controls.shaderSignedZeroInfNanPreserveFloat32),
                                      (64, controls.shaderDenormPreserveFloat64,
                                       controls.shaderSignedZeroInfNanPreserveFloat64)):
            if width == 64 and not feats.shaderFloat64:
                continue
            if denorm:
                float_controls.append(("denorm_preserve", width))
            if signed:
                float_controls.append(("signed_zero_inf_nan_preserve", width))
        # a kernel binds its inputs, its output, a scratch buffer and maybe its arguments'
        # buffer as storage buffers, within the per-stage limit (32 on lavapipe: a sum of
        # 35 elements of one array crashed the driver, one binding per element view)
        max_loads = int(limits.maxPerStageDescriptorStorageBuffers) - 4
        extra: dict[str, Any] = {"float_controls": float_controls,
                                 "push_constants": push_bytes}
        if self.addresses:
            extra["addresses"] = True       # (no bindings per buffer: no limit on loads)
        else:
            extra["max_loads"] = max_loads
        subgroup = _fixed_subgroup(physical)
        if subgroup:
            extra["subgroup"] = subgroup
        self.info = dataclasses.replace(self.info, extra=extra)
        # On integrated GPUs and CPU drivers (lavapipe) buffers are host-visible memory,
        # mapped and copied to directly. A discrete GPU's buffers are device-local memory
        # the host does not map (even where all of it is host-visible, as on an H100: host
        # reads of it cross the bus uncached), reached through a staging buffer in
        # host-cached memory. (The tests force the staging path on lavapipe too.)
        self.mapped_memory = props.deviceType != vk.VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU
        self._stage: _Allocation | None = None       # (the staging buffer, reused)
        self.slabs: dict[tuple, list[_Block]] = {}   # (slot, memory type, mapped) -> blocks
        self.compiles = 0        # pipelines made in this process (the tests' summary reads it)
        self.pool = MemoryPool(self.info.name, self._raw_alloc, self._raw_free, 0)
        # compiled pipelines kept on disk (the driver's own format, checked by the driver
        # against its identity: a stale or foreign cache is ignored, not an error)
        self.cache_file: Any = None
        self._cache_dirty = False           # pipelines made since the cache was written
        self._cache_saved = time.monotonic()
        initial = b""
        if cache.enabled():
            model = "".join(ch if ch.isalnum() else "_" for ch in self.info.description)
            self.cache_file = cache.directory("vulkan") / f"{model[:100]}.pipelines"
            atexit.register(self.save_pipeline_cache)     # (writes only if pipelines were made)
            with contextlib.suppress(OSError):
                initial = self.cache_file.read_bytes()
        self._initial = vk.ffi.from_buffer(initial) if initial else vk.ffi.NULL
        info = vk.VkPipelineCacheCreateInfo(initialDataSize=len(initial),
                                            pInitialData=vk.ffi.cast("void*", self._initial))
        self.pipeline_cache = vk.vkCreatePipelineCache(self.handle, info, None)
        # whether GLSL's Fma rounds once here (NVIDIA: yes; lavapipe: no): the math
        # routines then use it instead of an exact emulation
        fused = _fused_fma(self)
        self.info = dataclasses.replace(self.info, extra={**self.info.extra,
                                                          "fused_fma": fused})

    def pipeline_made(self) -> None:
        """Note a new pipeline in the cache: it is written to disk at exit, and meanwhile at
        most every ``CACHE_SAVE_EVERY`` seconds. (Writing the whole cache after each
        pipeline cost 3.5 ms a kernel on NVIDIA's driver once it held 130 kernels, 1.9 MB,
        and grew with every kernel.)"""
        self._cache_dirty = True
        if time.monotonic() - self._cache_saved >= CACHE_SAVE_EVERY:
            self.save_pipeline_cache()

    def save_pipeline_cache(self) -> None:
        """Write the pipeline cache to disk (atomically: a reader never sees half a file)."""
        if self.cache_file is None or not self._cache_dirty:
            return
        self._cache_dirty = False
        self._cache_saved = time.monotonic()
        vk = _vk
        from vulkan._vulkan import lib  # (the package wraps no vkGetPipelineCacheData)
        with contextlib.suppress(OSError):
            size = vk.ffi.new("size_t*")
            lib.vkGetPipelineCacheData(self.handle, self.pipeline_cache, size, vk.ffi.NULL)
            data = vk.ffi.new("char[]", size[0])
            if lib.vkGetPipelineCacheData(self.handle, self.pipeline_cache, size, data) == 0:
                cache.store_bytes("vulkan", self.cache_file.stem, ".pipelines",
                                  bytes(vk.ffi.buffer(data, size[0])))

    # -- memory ------------------------------------------------------------------------------
    def _memory_type(self, bits: int, want: int) -> int | None:
        for i, (flags, _heap) in enumerate(self.memory_types):
            if bits & (1 << i) and flags & want == want:
                return i
        return None

    def _raw_alloc(self, nbytes: int) -> _Allocation:
        vk = _vk
        nbytes = max(4, -(-nbytes // 4) * 4)    # (whole 32-bit words: vkCmdFillBuffer's unit)
        if nbytes > self.max_buffer:
            raise MemoryError(f"cannot allocate {nbytes} bytes on device {self.info.name}: "
                              f"a {'buffer' if self.addresses else 'storage buffer'} holds "
                              f"at most {self.max_buffer} bytes here")
        visible = (vk.VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT
                   | vk.VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)
        local = vk.VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT
        usage = (vk.VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | vk.VK_BUFFER_USAGE_TRANSFER_SRC_BIT
                 | vk.VK_BUFFER_USAGE_TRANSFER_DST_BIT)
        if self.addresses:
            usage |= _USAGE_ADDRESS
        mapped = self.mapped_memory or nbytes <= _SMALL
        # (a discrete GPU's small buffers, scalars read back, in device-local memory the
        # host maps where there is some: a read is a load, not a transfer)
        wants = (visible | local, local, visible) if mapped else (local, visible)
        if nbytes <= _SLAB_MAX:
            handle = self._slab_alloc(nbytes, usage, wants, mapped)
            if handle is not None:
                return handle
        return self._buffer(nbytes, usage, wants, mapped)

    # -- sub-allocation: small buffers share large blocks of device memory ------------------
    def _slab_alloc(self, nbytes: int, usage: int, wants: tuple[int, ...],
                    mapped: bool) -> _Allocation | None:
        """A VkBuffer of ``nbytes`` bound at a free slot of a ``_BLOCK``-byte block of
        memory: slots of a power of two from 256 bytes to ``_SLAB_MAX`` (a driver may allow
        only 4096 allocations: NVIDIA's does). None where the buffer's requirements do not
        fit a slot (then it gets memory of its own)."""
        vk = _vk
        slot = max(256, 1 << (nbytes - 1).bit_length())
        buf = vk.vkCreateBuffer(self.handle, vk.VkBufferCreateInfo(
            size=nbytes, usage=usage, sharingMode=vk.VK_SHARING_MODE_EXCLUSIVE), None)
        req = vk.vkGetBufferMemoryRequirements(self.handle, buf)
        kind = next((k for k in (self._memory_type(req.memoryTypeBits, w) for w in wants)
                     if k is not None), None)
        if kind is None or slot % req.alignment or req.size > slot:
            vk.vkDestroyBuffer(self.handle, buf, None)
            return None
        key = (slot, kind, mapped)
        blocks = self.slabs.setdefault(key, [])
        block = next((b for b in blocks if b.free), None)
        if block is None:
            try:
                memory = vk.vkAllocateMemory(self.handle, vk.VkMemoryAllocateInfo(
                    allocationSize=_BLOCK, memoryTypeIndex=kind,
                    pNext=self._address_flags()), None)
            except (vk.VkErrorOutOfDeviceMemory, vk.VkErrorOutOfHostMemory):
                vk.vkDestroyBuffer(self.handle, buf, None)
                raise MemoryError(f"cannot allocate {_BLOCK} bytes (a block of small "
                                  f"buffers) on device {self.info.name}") from None
            view = None
            visible = (vk.VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT
                       | vk.VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)
            if mapped and self.memory_types[kind][0] & visible == visible:
                view = np.frombuffer(vk.vkMapMemory(self.handle, memory, 0, _BLOCK, 0),
                                     np.uint8, _BLOCK)
            block = _Block(memory, view, slot)
            blocks.append(block)
        offset = block.free.pop()
        vk.vkBindBufferMemory(self.handle, buf, block.memory, offset)
        view = None if block.view is None else block.view[offset:offset + nbytes]
        handle = _Allocation(buf, block.memory, nbytes, view)
        handle.block, handle.offset = block, offset
        self._set_address(handle)
        return handle

    def _slab_free(self, handle: _Allocation) -> None:
        """A sub-allocated buffer's slot back to its block; a block left empty is freed
        (one stays per slot size and memory type)."""
        vk = _vk
        block = handle.block
        block.free.append(handle.offset)
        if len(block.free) == _BLOCK // block.slot:
            for blocks in self.slabs.values():
                if block in blocks and len(blocks) > 1:
                    blocks.remove(block)
                    if block.view is not None:
                        vk.vkUnmapMemory(self.handle, block.memory)
                    vk.vkFreeMemory(self.handle, block.memory, None)
                    break

    def _buffer(self, nbytes: int, usage: int, wants: tuple[int, ...],
                map_visible: bool) -> _Allocation:
        """A VkBuffer bound to memory of the first type with the properties of ``wants``
        that it can use, mapped when host-visible and ``map_visible``."""
        vk = _vk
        buf = vk.vkCreateBuffer(self.handle, vk.VkBufferCreateInfo(
            size=nbytes, usage=usage, sharingMode=vk.VK_SHARING_MODE_EXCLUSIVE), None)
        req = vk.vkGetBufferMemoryRequirements(self.handle, buf)
        kind = next((k for k in (self._memory_type(req.memoryTypeBits, w) for w in wants)
                     if k is not None), None)
        if kind is None:
            vk.vkDestroyBuffer(self.handle, buf, None)
            raise MemoryError(f"{self.info.name}: no memory type for a buffer of {nbytes} "
                              f"bytes")
        try:
            mem = vk.vkAllocateMemory(self.handle, vk.VkMemoryAllocateInfo(
                allocationSize=req.size, memoryTypeIndex=kind,
                pNext=self._address_flags()), None)
        except (vk.VkErrorOutOfDeviceMemory, vk.VkErrorOutOfHostMemory):
            vk.vkDestroyBuffer(self.handle, buf, None)
            raise MemoryError(f"cannot allocate {nbytes} bytes on device "
                              f"{self.info.name}") from None
        vk.vkBindBufferMemory(self.handle, buf, mem, 0)
        visible = (vk.VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT
                   | vk.VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)
        view = None
        if map_visible and self.memory_types[kind][0] & visible == visible:
            mapped = vk.vkMapMemory(self.handle, mem, 0, nbytes, 0)
            view = np.frombuffer(mapped, np.uint8, nbytes)
        out = _Allocation(buf, mem, nbytes, view)
        self._set_address(out)
        return out

    def _address_flags(self) -> Any:
        """The pNext of a memory allocation that buffers bound to it take addresses in."""
        vk = _vk
        if not self.addresses:
            return vk.ffi.NULL
        return vk.VkMemoryAllocateFlagsInfo(flags=_ALLOCATE_ADDRESS)

    def _set_address(self, handle: _Allocation) -> None:
        if self.addresses:      # (raw: the package's wrapper returns its argument)
            fast = self._launch
            info = fast.ffi.new("VkBufferDeviceAddressInfo*", {
                "sType": _vk.VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO,
                "buffer": handle.buffer})
            handle.address = int(fast.lib.vkGetBufferDeviceAddress(self.handle, info))

    def _raw_free(self, handle: _Allocation) -> None:
        vk = _vk
        handle.freed = True
        if handle.block is not None:
            with contextlib.suppress(Exception):
                vk.vkDestroyBuffer(self.handle, handle.buffer, None)
            self._slab_free(handle)
            return
        with contextlib.suppress(Exception):
            if handle.view is not None:
                vk.vkUnmapMemory(self.handle, handle.memory)
            vk.vkDestroyBuffer(self.handle, handle.buffer, None)
            vk.vkFreeMemory(self.handle, handle.memory, None)

    def copy_in(self, buffer: Buffer, data: np.ndarray) -> None:
        raw = np.ascontiguousarray(data).reshape(-1).view(np.uint8)
        if raw.size != buffer.nbytes and not (raw.size == 0 and buffer.nbytes <= 1):
            raise ValueError(f"copy_in: {raw.size} bytes into a {buffer.nbytes}-byte buffer")
        if raw.size == 0:
            return
        if buffer.handle.view is not None:
            buffer.handle.view[:raw.size] = raw
            return
        with self.lock:
            for at, n, stage in self._chunks(raw.size):
                stage.view[:n] = raw[at:at + n]
                self._copy(stage, buffer.handle, n, dst_offset=at)

    def copy_out(self, buffer: Buffer, start: int = 0, stop: int | None = None,
                 while_waiting: Any = None, into: np.ndarray | None = None) -> np.ndarray:
        start, end = byte_range(buffer, start, stop)
        if while_waiting is not None:
            while_waiting()
        buffer.ready.wait()
        if buffer.handle.view is not None:
            out = buffer.handle.view[start:end].copy()
        else:
            out = into if into is not None else np.empty(end - start, np.uint8)
            with self.lock:
                for at, n, stage in self._chunks(end - start):
                    self._copy(buffer.handle, stage, n, src_offset=start + at)
                    out[at:at + n] = stage.view[:n]
            if into is not None:
                return into
        if into is not None:
            into[...] = out
            return into
        out.flags.writeable = False
        return out

    def copy(self, dst: Buffer, src: Buffer, nbytes: int | None = None) -> None:
        """Copy ``src`` into ``dst`` (a buffer of this device), asynchronously: a transfer on
        the queue after everything before it. A source on another device goes through the
        host."""
        n = min(src.nbytes, dst.nbytes) if nbytes is None else int(nbytes)
        if n == 0:
            return
        if src.device is not self:
            data = src.device.copy_out(src)[:n]
            if n < dst.nbytes:                  # (the rest of dst is kept)
                dst.ready.wait()
                whole = np.array(self.copy_out(dst))
                whole[:n] = data
                data = whole
            self.copy_in(dst, data)
            return
        vk = _vk
        with self.lock:
            cb = self.begin()
            vk.vkCmdCopyBuffer(cb, src.handle.buffer, dst.handle.buffer, 1, [vk.VkBufferCopy(
                srcOffset=0, dstOffset=0, size=n)])
            dst.ready = self.submit(cb, (src, dst))

    def fill_zero(self, buffer: Buffer) -> None:
        """Set every byte of ``buffer`` to 0, asynchronously (allocations are whole words)."""
        if buffer.nbytes == 0:
            return
        vk = _vk
        with self.lock:
            cb = self.begin()
            vk.vkCmdFillBuffer(cb, buffer.handle.buffer, 0, buffer.handle.size, 0)
            buffer.ready = self.submit(cb, buffer)

    def _chunks(self, nbytes: int) -> Any:
        """(offset, size, staging buffer) for a copy of ``nbytes`` through the staging
        buffer, at most ``_STAGE`` bytes a step (the buffer made once, in host-cached memory
        where there is some)."""
        vk = _vk
        if self._stage is None:
            visible = (vk.VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT
                       | vk.VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)
            cached = visible | vk.VK_MEMORY_PROPERTY_HOST_CACHED_BIT
            self._stage = self._buffer(_STAGE, vk.VK_BUFFER_USAGE_TRANSFER_SRC_BIT
                                       | vk.VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                       (cached, visible), True)
        for at in range(0, nbytes, _STAGE):
            yield at, min(_STAGE, nbytes - at), self._stage

    def _copy(self, src: _Allocation, dst: _Allocation, nbytes: int, src_offset: int = 0,
              dst_offset: int = 0) -> None:
        """A transfer on the queue, after everything queued before it; waited for."""
        vk = _vk
        with self.lock:
            cb = self.begin()
            vk.vkCmdCopyBuffer(cb, src.buffer, dst.buffer, 1, [vk.VkBufferCopy(
                srcOffset=src_offset, dstOffset=dst_offset, size=nbytes)])
            event = self.submit(cb, None)
        event.wait()

    # -- command buffers and the timeline ------------------------------------------------------
    def begin(self) -> Any:
        """The command buffer to record into: the open batch's, after a barrier that orders
        this work after what the batch holds, else a new one (a batch) that opens with a
        barrier making every earlier write visible: work runs in recording order."""
        vk = _vk
        fast = self._launch
        if self.batch is not None:
            cb = self.batch.cb
            fast.lib.vkCmdPipelineBarrier(cb, fast.all_stages, fast.all_stages, 0, 1,
                                          fast.open_barrier, 0, fast.ffi.NULL, 0,
                                          fast.ffi.NULL)
            return cb
        self._reclaim()
        if self.free_commands:      # (reset by vkBeginCommandBuffer: the pool allows it)
            cb = self.free_commands.pop()
        else:
            cb = vk.vkAllocateCommandBuffers(self.handle, vk.VkCommandBufferAllocateInfo(
                commandPool=self.command_pool, level=vk.VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                commandBufferCount=1))[0]
        _check(fast.lib.vkBeginCommandBuffer(cb, fast.begin_info), "vkBeginCommandBuffer")
        fast.lib.vkCmdPipelineBarrier(cb, fast.all_stages, fast.all_stages, 0, 1,
                                      fast.open_barrier, 0, fast.ffi.NULL, 0, fast.ffi.NULL)
        self.batch = _Batch(cb, self.submitted + 1)
        return cb

    def submit(self, cb: Any, keep: Any, release: Any = None) -> VulkanEvent:
        """Add the work just recorded to the open batch; ``keep`` (buffers) lives and
        ``release`` runs once it is complete. Returns its event: the batch's timeline value.
        The batch is submitted when it holds ``_BATCH`` pieces of work, when the device has
        finished everything submitted before it and the last submission is ``_IDLE_GAP``
        old (so an idle device gets work at once, and launches in quick succession share a
        submission), or when something waits for it (an event, a read, ``synchronize``)."""
        batch = self.batch
        assert batch is not None and batch.cb == cb, "submit without begin"
        batch.keep.append(keep)
        if release is not None:
            batch.release.append(release)
        batch.count += 1
        event = VulkanEvent(self, batch.value)
        if batch.count >= _BATCH or (self.completed() >= self.submitted and
                                     time.perf_counter() - self.flushed >= _IDLE_GAP):
            self.flush()
        return event

    def flush(self) -> None:
        """Submit the open batch (if any), signalling its timeline value."""
        with self.lock:
            batch = self.batch
            if batch is None:
                return
            self.batch = None
            fast = self._launch
            cb = batch.cb
            # the work's writes made visible to the host, which reads mapped memory once
            # the timeline value is reached
            fast.lib.vkCmdPipelineBarrier(cb, fast.all_stages, fast.host_stage, 0, 1,
                                          fast.close_barrier, 0, fast.ffi.NULL, 0,
                                          fast.ffi.NULL)
            _check(fast.lib.vkEndCommandBuffer(cb), "vkEndCommandBuffer")
            fast.value[0] = batch.value
            fast.command[0] = cb
            _check(fast.lib.vkQueueSubmit(self.queue, 1, fast.submit_info, fast.ffi.NULL),
                   "vkQueueSubmit")
            self.submitted = batch.value
            self.flushed = time.perf_counter()
            self.in_flight.append((batch.value, cb, batch.keep, batch.release))

    # -- profiling: timestamp queries (the ``profile`` debug topic) ------------------------------
    def timer(self) -> int:
        """A free pair of timestamp queries for one launch (a ring of ``_QUERIES``)."""
        vk = _vk
        if self.queries is None:
            self.queries = vk.vkCreateQueryPool(self.handle, vk.VkQueryPoolCreateInfo(
                queryType=vk.VK_QUERY_TYPE_TIMESTAMP, queryCount=2 * _QUERIES), None)
            self.query_result = self._launch.ffi.new("uint64_t[2]")
        self.next_query = (self.next_query + 1) % _QUERIES
        if self.next_query == 0:            # (the ring wraps: earlier launches must be read)
            self.synchronize()
        return self.next_query

    def elapsed(self, slot: int) -> float:
        """Seconds between a completed launch's two timestamps."""
        fast = self._launch
        _check(fast.lib.vkGetQueryPoolResults(
            self.handle, self.queries, 2 * slot, 2, 16, self.query_result, 8,
            _vk.VK_QUERY_RESULT_64_BIT), "vkGetQueryPoolResults")
        ticks = int(self.query_result[1]) - int(self.query_result[0])
        return ticks * self.timestamp_period * 1e-9

    def completed(self) -> int:
        """The last timeline value the device has reached."""
        fast = self._launch
        _check(fast.lib.vkGetSemaphoreCounterValue(self.handle, self.timeline, fast.counter),
               "vkGetSemaphoreCounterValue")
        return int(fast.counter[0])

    def wait_value(self, value: int) -> None:
        vk = _vk
        if value > self.submitted:             # (the open batch: submitted first)
            self.flush()
        if value <= 0 or self.completed() >= value:
            return
        vk.vkWaitSemaphores(self.handle, vk.VkSemaphoreWaitInfo(
            semaphoreCount=1, pSemaphores=[self.timeline], pValues=[value]), 2 ** 63 - 1)

    def _reclaim(self) -> None:
        """Take back what completed submissions held (command buffers, descriptor sets)."""
        if not self.in_flight:
            return
        done = self.completed()
        still = []
        for item in self.in_flight:
            if item[0] <= done:
                self.free_commands.append(item[1])
                for release in item[3]:
                    release()
            else:
                still.append(item)
        self.in_flight = still

    # -- compute -----------------------------------------------------------------------------
    def compile(self, source: Any, ir: Any) -> Program:
        if not hasattr(source, "binary"):
            raise ValueError(f"{self.info.name}: compile takes a SPIR-V module "
                             f"(_codegen.spirv), not {type(source).__name__}")
        self.compiles += 1
        return VulkanProgram(self, ir.name, source, dict(ir.meta), len(ir.buffers))

    def synchronize(self) -> None:
        self.flush()
        self.wait_value(self.submitted)
        with self.lock:
            self._reclaim()


#: compute units assumed for a GPU whose driver reports none (Vulkan's core properties do not
#: count them; lowering sizes split reductions by them)
UNKNOWN_GPU_UNITS = 32


def _compute_units(physical: Any, props: Any) -> int:
    """The device's compute units, for lowering (how many groups fill it): NVIDIA's SMs
    (``VK_NV_shader_sm_builtins``), AMD's CUs (``VK_AMD_shader_core_properties``), Arm's
    shader cores (``VK_ARM_shader_core_builtins``), the host's cores for a CPU driver
    (lavapipe), else ``UNKNOWN_GPU_UNITS``."""
    vk = _vk
    if props.deviceType == vk.VK_PHYSICAL_DEVICE_TYPE_CPU:
        return os.cpu_count() or 1
    names = set()
    for e in vk.vkEnumerateDeviceExtensionProperties(physical, None):
        name = e.extensionName
        names.add(name if isinstance(name, str) else vk.ffi.string(name).decode())
    for extension, struct_name, count in (
            ("VK_NV_shader_sm_builtins", "VkPhysicalDeviceShaderSMBuiltinsPropertiesNV",
             lambda p: p.shaderSMCount),
            ("VK_AMD_shader_core_properties", "VkPhysicalDeviceShaderCorePropertiesAMD",
             lambda p: p.shaderEngineCount * p.shaderArraysPerEngineCount *
             p.computeUnitsPerShaderArray),
            ("VK_ARM_shader_core_builtins", "VkPhysicalDeviceShaderCoreBuiltinsPropertiesARM",
             lambda p: p.shaderCoreCount)):
        if extension in names:
            found = getattr(vk, struct_name)()
            vk.vkGetPhysicalDeviceProperties2(physical, vk.VkPhysicalDeviceProperties2(
                pNext=found))
            units = int(count(found))
            if units > 0:
                return units
    return UNKNOWN_GPU_UNITS


def _fma_probe(float64: bool) -> bytes:
    """A compute shader (SPIR-V words, written out here: the runtime does not use the
    renderer) computing GLSL.std.450's Fma(a, a, c) of a buffer's a = 1 + 2^-12 (2^-27 for
    float64) and c = -fl(a * a): 2^-24 (2^-54) where the driver fuses it, 0 where it does
    not. Buffer 0 holds float32 [a, a, c, out], buffer 1 float64 ones."""
    words: list[int] = []

    def op(code: int, *operands: int) -> None:
        words.append(((len(operands) + 1) << 16) | code)
        words.extend(operands)

    name = [int.from_bytes(b"main", "little"), 0]
    glsl = [int.from_bytes(b"GLSL", "little"), int.from_bytes(b".std", "little"),
            int.from_bytes(b".450", "little"), 0]
    op(17, 1)                                            # Capability Shader
    if float64:
        op(17, 10)                                       # Capability Float64
    op(11, 1, *glsl)                                     # %1 = ExtInstImport
    op(14, 0, 1)                                         # MemoryModel Logical GLSL450
    op(15, 5, 2, *name)                                  # EntryPoint GLCompute %2 "main"
    op(16, 2, 17, 1, 1, 1)                               # ExecutionMode LocalSize 1 1 1
    widths = [(32, 5, 6, 7, 8, 9, 15, 0)]
    if float64:
        widths.append((64, 20, 21, 22, 23, 24, 25, 1))
    for bits, _, rta, block, _, var, _, binding in widths:
        op(71, rta, 6, bits // 8)                        # Decorate ArrayStride
        op(71, block, 2)                                 # Decorate Block
        op(72, block, 0, 35, 0)                          # MemberDecorate Offset 0
        op(71, var, 34, 0)                               # DescriptorSet 0
        op(71, var, 33, binding)                         # Binding
    op(19, 3)                                            # %3 = TypeVoid
    op(33, 4, 3)                                         # %4 = TypeFunction %3
    op(21, 10, 32, 1)                                    # %10 = TypeInt 32 1
    for k in range(4):
        op(43, 10, 11 + k, k)                            # %11..%14 = Constant 0..3
    for bits, f, rta, block, ptr_block, var, ptr, _ in widths:
        op(22, f, bits)                                  # TypeFloat
        op(29, rta, f)                                   # TypeRuntimeArray
        op(30, block, rta)                               # TypeStruct
        op(32, ptr_block, 12, block)                     # TypePointer StorageBuffer
        op(59, ptr_block, var, 12)                       # Variable StorageBuffer
        op(32, ptr, 12, f)                               # TypePointer StorageBuffer float
    op(54, 3, 2, 0, 4)                                   # Function
    op(248, 16)                                          # Label
    nid = 30
    for _, f, _, _, _, var, ptr, _ in widths:
        loaded = []
        for k in range(3):
            op(65, ptr, nid, var, 11, 11 + k)            # AccessChain
            op(61, f, nid + 1, nid)                      # Load
            loaded.append(nid + 1)
            nid += 2
        op(12, f, nid, 1, 50, *loaded)                   # ExtInst Fma
        op(65, ptr, nid + 1, var, 11, 14)
        op(62, nid + 1, nid)                             # Store
        nid += 2
    op(253)                                              # Return
    op(56)                                               # FunctionEnd
    header = [0x07230203, 0x00010300, 0, nid, 0]
    return struct.pack(f"<{len(header) + len(words)}I", *header, *words)


def _fused_fma(device: VulkanDevice) -> tuple[bool, bool]:
    """Whether the driver's Fma rounds once, for float32 and float64 (measured)."""
    class _Module:
        binary = _fma_probe(device.info.float64)
        arguments = (0, 0)

    try:
        prog = VulkanProgram(device, "fma_probe", _Module(),
                             {"local_size": 1, "groups_arg": 0}, 2 if device.info.float64
                             else 1)
        a32 = np.float32(1 + 2.0 ** -12)
        a64 = 1 + 2.0 ** -27
        data = [np.array([a32, a32, -(a32 * a32), 0], np.float32),
                np.array([a64, a64, -(a64 * a64), 0], np.float64)][:2 if device.info.float64
                                                                   else 1]
        bufs = []
        for d in data:
            b = device.alloc(d.nbytes)
            device.copy_in(b, d)
            bufs.append(b)
        for b in bufs:
            b.ready = prog(bufs, [1], [])
        out = [np.frombuffer(device.copy_out(b).tobytes(), d.dtype)[3]
               for b, d in zip(bufs, data)]
        return bool(out[0] != 0), bool(len(out) > 1 and out[1] != 0)
    except Exception as e:      # (a driver that cannot run it: emulate, as if not fused)
        _debug.log("devices", f"{device.info.name}: the Fma probe failed ({e})")
        return False, False


def _missing_features(physical: Any) -> str:
    """The features kernels need that the device lacks ("" when it has them): 64-bit
    integers (every index is one), 8- and 16-bit storage (bool, int8, float16 buffers) and
    timeline semaphores (the events)."""
    vk = _vk
    v11 = vk.VkPhysicalDeviceVulkan11Features()
    v12 = vk.VkPhysicalDeviceVulkan12Features(pNext=v11)
    feats = vk.VkPhysicalDeviceFeatures2(pNext=v12)
    try:
        vk.vkGetPhysicalDeviceFeatures2(physical, feats)
    except Exception as e:          # (a Vulkan 1.0 driver)
        return f"Vulkan 1.2 features ({type(e).__name__})"
    need = [("shaderInt64", feats.features.shaderInt64),
            ("shaderInt16", feats.features.shaderInt16),
            ("storageBuffer16BitAccess", v11.storageBuffer16BitAccess),
            ("storageBuffer8BitAccess", v12.storageBuffer8BitAccess),
            ("shaderInt8", v12.shaderInt8), ("timelineSemaphore", v12.timelineSemaphore)]
    return ", ".join(n for n, have in need if not have)


def _fixed_subgroup(physical: Any) -> int:
    """The device's subgroup size where compute shaders always run with it and can shuffle
    (then group reductions use subgroup shuffles); 0 otherwise (a size that may vary, as
    Intel's, or no shuffles)."""
    vk = _vk
    try:
        control = vk.VkPhysicalDeviceSubgroupSizeControlProperties()
        props = vk.VkPhysicalDeviceSubgroupProperties(pNext=control)
        vk.vkGetPhysicalDeviceProperties2(physical, vk.VkPhysicalDeviceProperties2(
            pNext=props))
    except Exception:
        return 0
    size = int(props.subgroupSize)
    shuffles = props.supportedOperations & vk.VK_SUBGROUP_FEATURE_SHUFFLE_BIT
    compute = props.supportedStages & vk.VK_SHADER_STAGE_COMPUTE_BIT
    fixed = control.minSubgroupSize in (0, size) and control.maxSubgroupSize in (0, size)
    return size if shuffles and compute and fixed and size > 1 else 0


def discover() -> tuple[list[VulkanDevice], list[str]]:
    """Every physical device with a compute queue, and why there are none where none is."""
    try:
        vk = _load()
    except (ImportError, OSError) as e:    # (OSError: the package is there, the loader not)
        return [], [f"vulkan: the vulkan package or the Vulkan loader is missing ({e})"]
    try:
        app = vk.VkApplicationInfo(pApplicationName="zyxarray", applicationVersion=1,
                                   pEngineName="zyxarray", engineVersion=1,
                                   apiVersion=vk.VK_MAKE_VERSION(1, 2, 0))
        instance = vk.vkCreateInstance(vk.VkInstanceCreateInfo(pApplicationInfo=app), None)
        physical = vk.vkEnumeratePhysicalDevices(instance)
    except Exception as e:       # no driver (VK_ERROR_INCOMPATIBLE_DRIVER), ...
        return [], [f"vulkan: no usable driver ({type(e).__name__}: {e})"]
    devices, reasons = [], []
    for p in physical:
        families = vk.vkGetPhysicalDeviceQueueFamilyProperties(p)
        if not any(f.queueFlags & vk.VK_QUEUE_COMPUTE_BIT for f in families):
            continue
        missing = _missing_features(p)
        if missing:
            props = vk.vkGetPhysicalDeviceProperties(p)
            name = props.deviceName if isinstance(props.deviceName, str) else \
                vk.ffi.string(props.deviceName).decode()
            reasons.append(f"vulkan: {name} lacks {missing}, which zyxarray's kernels need; "
                           f"not offered")
            continue
        try:
            devices.append(VulkanDevice(len(devices), instance, p))
        except Exception as e:
            reasons.append(f"vulkan: a device could not be opened ({type(e).__name__}: {e})")
    if not devices and not reasons:
        reasons.append("vulkan: no physical device with a compute queue")
    return devices, reasons

