"""The ``deducer`` command's exit codes and the lines it ends with when stopped early:
shared by the dispatcher (:mod:`deducer.app.cli`), the backstop
(:mod:`deducer.app.backstop`) and the commands."""

EXIT_OK, EXIT_NO_SOLUTION, EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_UNDECIDED = 0, 1, 2, 3, 4
#: Ctrl-C (SIGINT): the shell's code for it, after the answer so far is printed
EXIT_INTERRUPTED = 130

#: the last line of a command the time limit's backstop stopped (exit code 4)
STOPPED = "deducer: stopped: the time limit (--timeout) ran out before the work finished\n"
#: the last line of a command Ctrl-C stopped, after the answer so far (exit code 130)
INTERRUPTED = ("deducer: interrupted (Ctrl-C): what is printed above is the answer so far, "
               "cut short\n")
