;;; emacs-diagnostic.el --- run by Scripts/check-editors in `emacs --batch'  -*- lexical-binding: t -*-

;; After Editors/emacs/plumb.el (and `plumb-command' set to the built plumb): opens
;; Tests/editors/filtr.pipe, lets Eglot connect to `plumb lsp' and waits for Flymake to show the
;; server's diagnostic for `filtr' (E302). Prints "ok: ..." lines; exits 0 only when all held.

(defun check (condition message)
  (if condition
      (princ (format "ok: %s\n" message))
    (princ (format "FAIL: %s\n" message))
    (kill-emacs 1)))

;; Upper bounds against a hang on a loaded machine, not timing assertions.
(defun wait-for (predicate seconds)
  (let ((deadline (+ (float-time) seconds)) (done nil))
    (while (and (not (setq done (funcall predicate))) (< (float-time) deadline))
      ;; Batch mode has no command loop: run what Eglot and Flymake defer to it.
      (run-hooks 'post-command-hook)
      (accept-process-output nil 0.1))
    done))

(find-file (expand-file-name "Tests/editors/filtr.pipe"))
(check (eq major-mode 'pipe-mode) "filtr.pipe opens in pipe-mode")
(check (wait-for (lambda () (eglot-current-server)) 120) "Eglot connected to plumb lsp")
(check (wait-for (lambda () (and (bound-and-true-p flymake-mode)
                                 (progn (flymake-start) t)
                                 (flymake-diagnostics)))
                 120)
       "Flymake shows the server's diagnostics")
(let* ((diagnostic (car (flymake-diagnostics)))
       (text (flymake-diagnostic-text diagnostic)))
  (check (string-match-p "filtr" text) (format "the diagnostic is about filtr: %s" text))
  (check (memq (flymake-diagnostic-type diagnostic) (quote (:error eglot-error))) "it is an error")
  (check (equal (buffer-substring (flymake-diagnostic-beg diagnostic) (flymake-diagnostic-end diagnostic)) "filtr")
         "it covers the word filtr"))
(ignore-errors (eglot-shutdown (eglot-current-server)))
(kill-emacs 0)
