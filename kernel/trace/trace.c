# Our part of kernel/trace/trace.c: the kprobe lines of the tracefs
# README (readme_msg[], the mini-HOWTO), which must describe the grammar
# of our kprobe_events.  The prepare step (scripts/prepare.sh) puts these
# lines in place of the kernel's own, from its "place:" line through its
# "symstr, <type>\[<array-size>\]" line; make patch carries the result.
#
# Lines starting with "#" and a blank (or a lone "#") are not copied;
# the C preprocessor lines (#ifdef, #else, #endif) are.
#
# Tools find features by grepping this text, so each line uses the words
# Linux 6.12 uses for the same feature.  perf probe looks for "type: *
# x8/16/32/64,", "place (kretprobe): " (it then writes a return probe
# as "r _text+OFFSET"), "u]<offset>", "\imm-value," and "Create/append/";
# 6.12's ftracetest kprobe cases require or grep:
#   "place: [<module>:]<symbol>", "place (kretprobe): [<module>:]<symbol>"
#       add_remove_kprobe, clear_select_events, generic_clear_event
#   "<symbol>[+<offset>]%return"          kretprobe_return_suffix
#   "place (kretprobe): .*%return.*"      kprobe_syntax_errors
#   "r[maxactive]"                        kretprobe_maxactive, kprobe_syntax_errors
#   "x8/16/32/64"                         kprobe_args_syntax, _type, _symbol
#   "$arg<N>"                             kprobe_args_user, kprobe_syntax_errors
#   "$comm" on the line after "fetcharg:" kprobe_args_comm, _syntax, kprobe_syntax_errors
#   "ustring", "[u]<offset>" after it     kprobe_args_user
#   "imm-value", "imm-string"             kprobe_syntax_errors
#   " <type>\[<array-size>\]"            kprobe_syntax_errors (array errors)
#   "kernel return probes support:"       kretprobe_entry_arg, kprobe_syntax_errors
#   "%pd/%pD"                             kprobe_args_vfs
#   "symstr"                              uprobe_syntax_errors
#   "<argname>", "<argname>[->field[->field|.field...]]"
#                                         add_remove_btfarg, kprobe_syntax_errors
# Newer kernels' ftracetest (btf_probe_event.tc, btf_typecast_accepted.tc,
# kprobe_syntax_errors.tc) requires or greps, in their words:
#   "this_cpu_read(<fetcharg>)", "[(structname",
#   "[(structname[,field])]<argname>[->field[->field|.field...]]",
#   "$current"
# (Their lines put no comma after "$current"; ours do, as the list goes
# on.)  "$current->field" and typecasts need BTF: the BTF lines.
# ("char" is not grepped: kprobe_args_char.tc tries it.)  List only what
# kprobe_events accepts: test_readme_grammar.sh checks every type, fetch
# argument and place listed here against the parser, and that the types
# not listed are refused.  Per feature, the words to drop or add:
#   char: "char, " on the type line; symstr: "symstr, "; %pd/%pD:
#   "%pd/%pD, "; string arrays: none of their own (part of
#   "<type>\[<array-size>\]"); entry arguments at return: the "kernel
#   return probes support:" line.
#
# BTF argument names ("<argname>", with "$arg*" and "->field"): 6.12's
# line, under CONFIG_DEBUG_INFO_BTF, which builds our trace_kprobe_btf.c
# (6.12: CONFIG_PROBE_EVENTS_BTF_ARGS); drop it with that file.
#
# Ours beyond 6.12 (own words, nothing greps them): wildcard places
# ("pattern:", ftrace's fentry sites only) and $duration in return
# probes.
	"\t    place: [<module>:]<symbol>[+<offset>]|<memaddr>\n"
  "place (kretprobe): [<module>:]<symbol>[+<offset>]%return|<memaddr>\n"
#ifdef CONFIG_KPROBE_EVENTS_FENTRY
	"\t  pattern: [<module>:]<glob> in place of <symbol>, with <group>/<event>:\n"
#ifdef CONFIG_RETHOOK
	"\t           one event on the entry (or return) of every function it matches\n"
#else
	"\t           one event on the entry of every function it matches\n"
#endif
#endif
#endif
#ifdef CONFIG_UPROBE_EVENTS
  "   place (uprobe): <path>:<offset>[%return][(ref_ctr_offset)]\n"
#endif
	"\t     args: <name>=fetcharg[:type]\n"
	"\t fetcharg: (%<register>|$<efield>), @<address>, @<symbol>[+|-<offset>],\n"
#ifdef CONFIG_HAVE_FUNCTION_ARG_ACCESS_API
	"\t           $stack<index>, $stack, $retval, $comm, $arg<N>, $current,\n"
#ifdef CONFIG_DEBUG_INFO_BTF
	"\t           [(structname[,field])]<argname>[->field[->field|.field...]],\n"
	"\t           [(structname[,field])](fetcharg)->field[->field|.field...],\n"
#endif
#else
	"\t           $stack<index>, $stack, $retval, $comm, $current,\n"
#endif
	"\t           this_cpu_read(<fetcharg>), this_cpu_ptr(<fetcharg>),\n"
	"\t           +|-[u]<offset>(<fetcharg>), \\imm-value, \\\"imm-string\"\n"
#ifdef CONFIG_KPROBE_EVENTS
#ifdef CONFIG_HAVE_FUNCTION_ARG_ACCESS_API
	"\t     kernel return probes support: $retval, $arg<N>, $comm, $duration\n"
#else
	"\t     kernel return probes: $retval, $comm, $duration\n"
#endif
#endif
	"\t     type: s8/16/32/64, u8/16/32/64, x8/16/32/64, char, string, symbol,\n"
	"\t           b<bit-width>@<bit-offset>/<container-size>, ustring,\n"
	"\t           symstr, %pd/%pD, <type>\\[<array-size>\\]\n"
#ifdef CONFIG_UPROBE_EVENTS
	"\t     uprobe_events takes neither char, %pd/%pD, $current nor this_cpu_*()\n"
#endif
