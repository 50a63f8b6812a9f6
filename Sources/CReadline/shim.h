#ifndef PLUMB_CREADLINE_SHIM_H
#define PLUMB_CREADLINE_SHIM_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <readline/readline.h>
#include <readline/history.h>

// Swift 6 rejects direct use of C globals as shared mutable state, so every readline global the
// shell touches goes through one of these setters or getters; the unsafety stays in this file.
// All of them are called from the shell's main thread, which owns readline.

/// Names the program for ~/.inputrc conditionals and stops readline from catching signals
/// (the shell installs its own SIGINT/SIGWINCH handlers that write to a self-pipe).
static inline void plumb_rl_configure(const char *name) {
    rl_readline_name = name;
    rl_catch_signals = 0;
    rl_catch_sigwinch = 0;
    rl_change_environment = 0;
    // `:` and `/` are not word breaks, so that `:he` and `Examples/ba` complete as whole words.
    rl_completer_word_break_characters = " \t\n\"\\'`@$><=;|&{([";
}

/// The newest history entry, or NULL.
static inline const char *plumb_history_last(void) {
    if (history_length <= 0) return NULL;
    HIST_ENTRY *entry = history_get(history_base + history_length - 1);
    return entry ? entry->line : NULL;
}

static inline void plumb_rl_set_completion(rl_completion_func_t *function) {
    rl_attempted_completion_function = function;
}

/// Called from the completion function: no fallback to filename completion.
static inline void plumb_rl_set_attempted_completion_over(int value) { rl_attempted_completion_over = value; }
static inline void plumb_rl_set_completion_append_character(int value) { rl_completion_append_character = value; }

static inline const char *plumb_rl_line_buffer(void) { return rl_line_buffer; }
static inline int plumb_rl_point(void) { return rl_point; }
static inline void plumb_rl_set_point(int value) { rl_point = value; }
static inline int plumb_rl_end(void) { return rl_end; }

/// The filename generator, for `:load` completion.
static inline char **plumb_rl_filename_matches(const char *text) {
    return rl_completion_matches(text, rl_filename_completion_function);
}

/// Ctrl-C at the prompt: echo ^C, drop the typed text and any pending state, show a fresh prompt.
static inline void plumb_rl_interrupt_line(void) {
    rl_echo_signal_char(2 /* SIGINT */);
    rl_callback_sigcleanup();
    rl_free_line_state();
    rl_replace_line("", 0);
    rl_point = 0;
    rl_end = 0;
    rl_mark = 0;
    rl_crlf();
    rl_on_new_line();
}

/// After Ctrl-Z and `fg` (SIGCONT) at the prompt: the job-control shell had the terminal in its
/// own modes (echo on, line buffered), so keys would echo twice. Put readline's modes back and
/// redraw the prompt and the typed text on a fresh line.
static inline void plumb_rl_resume(void) {
    rl_cleanup_after_signal();
    rl_reset_after_signal();
    rl_crlf();
    rl_forced_update_display();
    fflush(rl_outstream ? rl_outstream : stdout);
}

/// Hides the prompt and the typed text so that output can be printed in their place.
static inline void plumb_rl_hide_line(void) {
    rl_clear_visible_line();
    // readline writes through a buffered FILE; the shell's output goes straight to the descriptor.
    fflush(rl_outstream ? rl_outstream : stdout);
}

/// Draws the prompt and the typed text again after output was printed above it (through the
/// redisplay function, which also draws a fix-it's dimmed offer).
static inline void plumb_rl_show_line(void) {
    rl_on_new_line();
    (*rl_redisplay_function)();
}

/// The function readline draws the line with (NULL: its own, `rl_redisplay`).
static inline void plumb_rl_set_redisplay(rl_voidfunc_t *function) {
    rl_redisplay_function = function ? function : rl_redisplay;
}

/// Writes `text` where readline writes, after what it buffered (an offer drawn after the line).
static inline void plumb_rl_write(const char *text) {
    FILE *out = rl_outstream ? rl_outstream : stdout;
    fputs(text, out);
    fflush(out);
}

/// The function bound to `keyseq` in the current keymap now (NULL: none), to put back later.
static inline rl_command_func_t *plumb_rl_function_of(const char *keyseq) {
    return rl_function_of_keyseq(keyseq, NULL, NULL);
}

#endif
