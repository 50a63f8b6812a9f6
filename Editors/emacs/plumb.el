;;; plumb.el --- .pipe files in Emacs: a major mode, and plumb lsp through Eglot  -*- lexical-binding: t -*-

;; Diagnostics with their ids, quick fixes (M-x eglot-code-actions), hover, completion
;; (completion-at-point), symbols (imenu), definition and references (M-. and M-?), rename
;; (M-x eglot-rename), formatting (M-x eglot-format-buffer) and signature help, from `plumb lsp'.
;;
;; Emacs 28 with Eglot (Debian: emacs-nox elpa-eglot) or Emacs 29 and later (Eglot built in).
;; Load it from your init file:  (load "/path/to/Editors/emacs/plumb.el")
;; If `plumb' is not on the PATH (Scripts/install puts it there), set the command first:
;;   (setq plumb-command '("/path/to/plumb" "lsp"))

(require 'eglot)

(defvar plumb-command '("plumb" "lsp")
  "The command that starts the language server for .pipe files.")

(defvar pipe-mode-syntax-table
  (let ((table (make-syntax-table)))
    (modify-syntax-entry ?# "<" table)
    (modify-syntax-entry ?\n ">" table)
    (modify-syntax-entry ?\" "\"" table)
    (modify-syntax-entry ?\\ "\\" table)
    (modify-syntax-entry ?$ "_" table)
    (modify-syntax-entry ?_ "_" table)
    table)
  "Syntax table of `pipe-mode': # starts a comment to the end of the line.")

(defvar pipe-font-lock-keywords
  `((,(regexp-opt '("let" "expect") 'symbols) . font-lock-keyword-face)
    (,(regexp-opt '("true" "false" "nil") 'symbols) . font-lock-constant-face)
    ("\\$[0-9]+" . font-lock-variable-name-face)
    ("\\_<[0-9][0-9_.]*\\(?:ns\\|us\\|µs\\|ms\\|s\\|m\\|h\\)\\_>" . font-lock-constant-face)
    ("^\\s-*\\(:[a-z]+\\)" 1 font-lock-preprocessor-face))
  "Highlighting for `pipe-mode'.")

;;;###autoload
(define-derived-mode pipe-mode prog-mode "Pipe"
  "Major mode for Plumb's .pipe scripts."
  :syntax-table pipe-mode-syntax-table
  (setq-local comment-start "# ")
  (setq-local comment-start-skip "#+\\s-*")
  (setq-local indent-tabs-mode nil)
  (setq-local font-lock-defaults '(pipe-font-lock-keywords)))

;;;###autoload
(add-to-list 'auto-mode-alist '("\\.pipe\\'" . pipe-mode))

(add-to-list 'eglot-server-programs `(pipe-mode . ,(lambda (&rest _) plumb-command)))
(add-hook 'pipe-mode-hook #'eglot-ensure)

(provide 'plumb)
;;; plumb.el ends here
