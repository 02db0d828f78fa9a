# Read by cpack before it makes a package (CPACK_PROJECT_CONFIG_FILE). A package runs on other
# machines only when it was built with -DLASCA_NATIVE=OFF: a -march=native build's programs die
# with an illegal instruction on any CPU without the building machine's instruction sets. cpack
# in a native build folder refuses, unless LASCA_PACKAGE_NATIVE=1 is in its environment (a
# package for this machine only).
if(CPACK_LASCA_NATIVE)
  if("$ENV{LASCA_PACKAGE_NATIVE}" STREQUAL "1")
    message(WARNING "lasca: packaging a -march=native build (LASCA_PACKAGE_NATIVE=1): this "
                    "package runs on this machine's CPU only, not on other x86-64 machines.")
  else()
    message(FATAL_ERROR "lasca: this build folder is built with -march=native "
                        "(LASCA_NATIVE=ON); its package would die with an illegal instruction "
                        "on other machines. Make the package from a portable build: cmake -S . "
                        "-B build-package -DCMAKE_BUILD_TYPE=Release -DLASCA_NATIVE=OFF, cmake "
                        "--build build-package, then cpack -G DEB in build-package (or set "
                        "LASCA_PACKAGE_NATIVE=1 for a package for this machine only).")
  endif()
endif()
