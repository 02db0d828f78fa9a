// What every bound class of the modules lasca._lasca and torneio gets once it is bound
// (guardClass, called by each bind* function): no crash from an object made without its
// constructor, and pickling by one route for every protocol (or a TypeError).
//
// Cls.__new__(Cls) without __init__: pybind11 makes the Python object but no C++ value. When a
// method then loads `self`, pybind11 allocates the value's memory without constructing it
// (type_caster_generic::load_value, kept for the old placement-new __init__, which these modules
// do not use) through the class's operator_new hook when it has one. The hook set here throws a
// TypeError instead, so every method and property of such an object raises before it runs, and
// the object itself stays harmless (nothing was allocated, nothing is freed). Constructors and
// __setstate__ fill the value themselves and never reach the hook.
//
// Pickling: protocols 0 and 1 reduce an object through copyreg._reduce_ex, which makes an
// instance of pybind11's bare base type and aborts the interpreter. A class pickled by state
// gets a __reduce__ giving (copyreg.__newobj__, (cls,), cls.__getstate__()), what protocol 2
// writes by itself, for every protocol: unpickling makes the object by Cls.__new__(Cls) and fills
// it by the class's __setstate__ (py::pickle); pickles written before stay readable. Any other
// class raises TypeError from __reduce__, as Python does for an object it cannot pickle.
#pragma once

#include <pybind11/pybind11.h>

#include <cstddef>
#include <string>
#include <typeinfo>

namespace python_guard {

namespace py = pybind11;

enum class Pickling {
    ByState,  // the class binds py::pickle (__getstate__, __setstate__)
    Refused,  // pickling raises TypeError
};

// The operator_new hook of a guarded class: reached only to build a value that no constructor
// built.
[[noreturn]] inline void* refuseUnconstructed(std::size_t) {
    throw py::type_error(
        "this object was made by __new__ without __init__: create it with its constructor");
}

// Guards the bound class cls of the C++ type T (see the top of this file).
template <class T>
void guardClass(const py::object& cls, Pickling pickling) {
    py::detail::type_info* info = py::detail::get_type_info(typeid(T));
    if (info == nullptr) py::pybind11_fail("guardClass: the type is not bound");
    info->operator_new = &refuseUnconstructed;

    const std::string name = py::str(cls.attr("__name__"));
    py::cpp_function reduce;
    if (pickling == Pickling::ByState) {
        reduce = py::cpp_function(
            [](const py::object& self) {
                py::object newobj = py::module_::import("copyreg").attr("__newobj__");
                return py::make_tuple(newobj, py::make_tuple(py::type::of(self)),
                                      self.attr("__getstate__")());
            },
            py::name("__reduce__"), py::is_method(cls));
    } else {
        reduce = py::cpp_function(
            [name](const py::object&) -> py::object {
                throw py::type_error("cannot pickle '" + name + "' object");
            },
            py::name("__reduce__"), py::is_method(cls));
    }
    py::setattr(cls, "__reduce__", reduce);
}

}  // namespace python_guard
