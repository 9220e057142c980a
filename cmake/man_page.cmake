# Writes pcisim's manual page (roff) from the built program's own help texts, so that it says
# what the program does:  cmake -DPCISIM=build/pcisim -DVERSION=0.1.0 -DOUT=pcisim.1 -P man_page.cmake
foreach(var PCISIM VERSION OUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "man_page.cmake: -D${var}=... is required")
  endif()
endforeach()

# Text as roff shows it verbatim: backslashes escaped, a leading dot or quote neutralised.
function(roff_verbatim text out)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

set(ENV{SC_COPYRIGHT_MESSAGE} DISABLE)
execute_process(COMMAND ${PCISIM} help OUTPUT_VARIABLE usage RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${PCISIM} help failed (${status})")
endif()
# The usage without its last line (where this build's data directory happens to be).
string(REGEX REPLACE "data directory:[^\n]*\n$" "" usage "${usage}")

# The commands: the usage's lines "  NAME ..." with a lowercase name.
string(REGEX MATCHALL "\n  [a-z]+ " lines "${usage}")
set(commands "")
foreach(line ${lines})
  string(STRIP "${line}" name)
  if(NOT name STREQUAL "help" AND NOT name STREQUAL "version")
    list(APPEND commands ${name})
  endif()
endforeach()

roff_verbatim("${usage}" usage_roff)
set(page ".TH PCISIM 1 \"\" \"pcisim ${VERSION}\" \"User Commands\"
.SH NAME
pcisim \\- cycle-approximate PCI/PCI-X bus and Intel e1000 (8254x) NIC simulator
.SH SYNOPSIS
.B pcisim
[\\fB\\-\\-data\\-dir\\fR \\fIDIR\\fR] [\\fB\\-q\\fR] \\fICOMMAND\\fR [\\fIARGS\\fR]
.SH DESCRIPTION
pcisim models a 2004-era PC transmitting and receiving packets through an Intel e1000: the
CPU running pktgen and the e1000 driver, the register (MMIO) path, host and PCI-PCI bridges,
the bus arbiter and protocol, and the NIC's descriptor and FIFO engines, as SystemC modules.
Packets per second against packet size emerge from those mechanisms.
A scenario is a JSON file with units in its key names; every key, its unit, default and
range is listed by \\fBpcisim schema\\fR, every result key by \\fBpcisim metrics\\fR.
.SH USAGE
.nf
${usage_roff}.fi
.SH COMMANDS
")
foreach(command ${commands})
  execute_process(COMMAND ${PCISIM} ${command} --help OUTPUT_VARIABLE help RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${PCISIM} ${command} --help failed (${status})")
  endif()
  roff_verbatim("${help}" help_roff)
  string(APPEND page ".SS ${command}\n.nf\n${help_roff}\n.fi\n")
endforeach()
string(APPEND page ".SH ENVIRONMENT
.TP
.B PCISIM_DATA_DIR
The data directory (it holds scenarios/: the scenarios, scenarios/platforms/ and
scenarios/calibration.json; and docs/data/, the reference measurements), when no
\\fB\\-\\-data\\-dir\\fR is given.  Otherwise pcisim looks in \\fIPREFIX\\fR/share/pcisim of the
installation it belongs to, then in the source tree it was built from.
.SH FILES
.TP
.I PREFIX/share/pcisim/scenarios/
The scenarios of the reference measurements, the platform presets (platforms/) and the
calibration set (calibration.json).
.TP
.I PREFIX/share/doc/pcisim/
The documentation: architecture, calibration, validation, sweeps, explain, receive, TSO,
TLM-2.0, the scenario and metrics references.
.SH EXIT STATUS
0 success; 1 a simulation, an output or a check (validate) that failed; 2 bad input: a scenario,
an option or a data directory, with one line per problem naming the key, the value and what was
expected.
")
file(WRITE ${OUT} "${page}")
