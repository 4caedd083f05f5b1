;;; agentd-diff.el --- The change a permission question proposes  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 agentd contributors
;; SPDX-License-Identifier: MIT

;; This file is part of the agentd Emacs package; see agentd.el.

;;; Commentary:

;; A `write' or `edit' permission question carries the proposed change as ACP
;; `diff' content in its tool call (path, oldText, newText).  This turns it into
;; chat lines: a unified diff per file from the `diff' program (diffutils, on
;; every system Emacs runs on here), cut at `agentd-diff-max-lines'.

;;; Code:

(require 'cl-lib)
(require 'subr-x)

(defcustom agentd-diff-max-lines 40
  "Lines of a proposed change shown with a permission question.
The lines beyond are not shown, only counted."
  :type 'integer
  :group 'agentd)

(defcustom agentd-diff-program "diff"
  "The program that shows a proposed change (it is run as PROGRAM -u OLD -)."
  :type 'string
  :group 'agentd)

(defun agentd-diff--hunks (old new)
  "The unified diff hunks (from the first @@ line) turning OLD into NEW, as lines.
When `agentd-diff-program' cannot run, one line saying so instead: the
permission question is still asked."
  (let ((old-file (make-temp-file "agentd-old-")))
    (unwind-protect
        (condition-case error
            (with-temp-buffer
              (let ((coding-system-for-write 'utf-8-unix)
                    (coding-system-for-read 'utf-8-unix))
                (with-temp-file old-file (insert old))
                (insert new)
                ;; diff exits 1 when the texts differ; its output is what matters.
                (call-process-region (point-min) (point-max) agentd-diff-program t t nil "-u" old-file "-"))
              (goto-char (point-min))
              (if (re-search-forward "^@@" nil t)
                  (split-string (buffer-substring (line-beginning-position) (point-max)) "\n" t)
                nil))
          (file-error
           (list (format "(cannot show it: %s; set `agentd-diff-program')" (error-message-string error)))))
      (delete-file old-file))))

(defun agentd-diff--relative (path cwd)
  "PATH relative to CWD when it lies inside it."
  (if (and cwd (string-prefix-p (file-name-as-directory cwd) path))
      (substring path (length (file-name-as-directory cwd)))
    path))

(defun agentd-diff-proposed-change (tool-call cwd)
  "Chat lines for every diff in TOOL-CALL's content, paths shown relative to CWD."
  (let (lines)
    (dolist (item (append (plist-get tool-call :content) nil))
      (when (and (equal (plist-get item :type) "diff")
                 (stringp (plist-get item :path))
                 (stringp (plist-get item :newText)))
        (let* ((old (plist-get item :oldText))
               (hunks (agentd-diff--hunks (if (stringp old) old "") (plist-get item :newText))))
          (push (format "- proposed %s %s:" (if (stringp old) "change to" "new file")
                        (agentd-diff--relative (plist-get item :path) cwd))
                lines)
          (cl-loop for hunk in hunks
                   for index from 1
                   if (> index agentd-diff-max-lines)
                   do (push (format "  ... %d more diff lines" (- (length hunks) agentd-diff-max-lines)) lines)
                   and return nil
                   else do (push (concat "  " hunk) lines)))))
    (nreverse lines)))

(provide 'agentd-diff)
;;; agentd-diff.el ends here
