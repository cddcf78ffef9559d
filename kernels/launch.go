package kernels

import (
	"errors"
	"fmt"
	"reflect"
)

// Typed kernel launches. wrappers_gen.go (generated from the .cu sources by
// internal/wrapgen; `go generate ./kernels`) holds one launch function per
// kernel, or per family of kernels sharing one signature, whose Go
// parameters mirror the C ones: a wrong argument count, order, width or
// pointee type fails to compile instead of corrupting a launch.

// Launcher runs one kernel launch on a 1-D grid: the cuda backend's device
// implements it. args holds one 8-byte slot per kernel parameter, in order:
// a device address, or a scalar zero-extended (signed ones through their
// unsigned twin, floats as their IEEE bits), which the driver reads at the
// parameter's own width.
type Launcher interface {
	LaunchKernel(name string, grid, block int, args []uint64) error
}

// ErrNotMember is returned by a family's launch function for a kernel name
// outside the family (a conversion from another string).
var ErrNotMember = errors.New("kernels: not a member of the kernel family")

// DevPtr is the device address of an array of T (a T* kernel parameter).
// The zero value is a null pointer. Distinct element types are distinct Go
// types, so a *u32 argument where the kernel wants *u64 does not compile.
type DevPtr[T any] struct{ addr uintptr }

// PtrAt returns the device address addr as a pointer to T. The caller
// vouches for the element type: prefer a typed accessor of the allocation
// (DeviceSlice[T].Ptr in the cuda backend).
func PtrAt[T any](addr uintptr) DevPtr[T] { return DevPtr[T]{addr} }

// DevicePtr returns the address (it makes DevPtr a runtime.DevicePointer).
func (p DevPtr[T]) DevicePtr() uintptr { return p.addr }

// IsNull reports whether p is the null pointer.
func (p DevPtr[T]) IsNull() bool { return p.addr == 0 }

// Void returns p as an untyped pointer (a const void* parameter).
func (p DevPtr[T]) Void() VoidPtr { return VoidPtr{p.addr} }

// String formats the address in hex.
func (p DevPtr[T]) String() string { return fmt.Sprintf("%#x", p.addr) }

// VoidPtr is an untyped device address (a void* kernel parameter, whose
// element type the kernel's name implies). The zero value is a null pointer.
type VoidPtr struct{ addr uintptr }

// DevicePtr returns the address.
func (p VoidPtr) DevicePtr() uintptr { return p.addr }

// IsNull reports whether p is the null pointer.
func (p VoidPtr) IsNull() bool { return p.addr == 0 }

// family is the name type of a kernel family (generated): its Valid tells
// the members from other strings.
type family interface {
	~string
	Valid() bool
}

// launchMember launches member k of a family with the family's parameter
// slots. A name outside the family (a conversion from another string) is
// refused: its kernel could take other parameters.
func launchMember[K family](l Launcher, k K, grid, block int, args []uint64) error {
	if !k.Valid() {
		return fmt.Errorf("%w: %q is not a %s", ErrNotMember, string(k), reflect.TypeFor[K]().Name())
	}
	return l.LaunchKernel(string(k), grid, block, args)
}
