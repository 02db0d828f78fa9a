# Run by cpack only (CPACK_INSTALL_SCRIPTS): puts lasca-web.service in the package's
# /usr/lib/systemd/system (neither enabled nor started: postinst). `cmake --install` leaves it
# out, as the unit names the package's paths (/usr/bin/lasca-web; README, "The web page").
file(INSTALL DESTINATION "${CPACK_PACKAGING_INSTALL_PREFIX}/lib/systemd/system" TYPE FILE
     FILES "${CPACK_LASCA_SYSTEMD_UNIT}")
