;;; agentd-chat.el --- Chat buffers for agentd sessions  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 agentd contributors
;; SPDX-License-Identifier: MIT

;; This file is part of the agentd Emacs package; see agentd.el.

;;; Commentary:

;; How a session looks: `agentd-chat-mode' and the functions that render what the
;; daemon streams (ACP `session/update' payloads, as plists) into the current
;; buffer.  Nothing here talks to the daemon, so every function can be tested on a
;; plain buffer.  Output is only ever appended at the end, except a tool call's
;; lines, which are redrawn in place as its status changes.

;;; Code:

(require 'cl-lib)
(require 'subr-x)

(defgroup agentd-chat nil
  "How agentd chat buffers look."
  :group 'agentd
  :prefix "agentd-chat-")

(defface agentd-chat-user-face '((t :inherit font-lock-keyword-face))
  "Face for the user's messages."
  :group 'agentd-chat)

(defface agentd-chat-thought-face '((t :inherit shadow :slant italic))
  "Face for the agent's reasoning."
  :group 'agentd-chat)

(defface agentd-chat-tool-face '((t :inherit font-lock-function-name-face))
  "Face for tool call titles."
  :group 'agentd-chat)

(defface agentd-chat-turn-end-face '((t :inherit shadow))
  "Face for the line that says how a turn ended."
  :group 'agentd-chat)

(defface agentd-chat-error-face '((t :inherit error))
  "Face for failures: a failed tool call or turn."
  :group 'agentd-chat)

(defface agentd-chat-notice-face '((t :inherit warning))
  "Face for notices from the daemon (retries, warnings)."
  :group 'agentd-chat)

(defcustom agentd-chat-tool-output-lines 6
  "How many lines of a failed tool call's output to show under it."
  :type 'integer
  :group 'agentd-chat)

(defvar-local agentd-chat--last-block nil
  "The block output is appended to: (KIND . MESSAGE-ID), or nil.")

(defvar-local agentd-chat--tool-calls nil
  "Tool calls shown in this buffer: toolCallId -> plist of the call's state.")

(defvar-local agentd-chat-status nil
  "Short state shown in the mode line, e.g. \"running\".")

(defvar-local agentd-chat-usage nil
  "The last `usage_update' of the session, as a plist.")

(defvar-local agentd-chat-title nil
  "The session's title, from its last `session_info_update'.")

(defvar agentd-chat-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "p") #'agentd-prompt)
    (define-key map (kbd "s") #'agentd-steer)
    (define-key map (kbd "f") #'agentd-follow-up)
    (define-key map (kbd "C-c C-k") #'agentd-abort)
    (define-key map (kbd "C-c C-c") #'agentd-cancel)
    (define-key map (kbd "n") #'agentd-new-session)
    (define-key map (kbd "l") #'agentd-sessions)
    map)
  "Keymap for `agentd-chat-mode'.")

(declare-function agentd-prompt "agentd")
(declare-function agentd-steer "agentd")
(declare-function agentd-follow-up "agentd")
(declare-function agentd-abort "agentd")
(declare-function agentd-cancel "agentd")
(declare-function agentd-new-session "agentd")
(declare-function agentd-sessions "agentd")

(define-derived-mode agentd-chat-mode special-mode "agentd"
  "Major mode for an agentd session's conversation.
The agent's answers stream in at the end; tool calls show their
status as it changes, and a line after each turn says how it
ended.

\\{agentd-chat-mode-map}"
  (setq-local word-wrap t)
  (setq-local truncate-lines nil)
  (setq-local agentd-chat--tool-calls (make-hash-table :test #'equal))
  (setq mode-line-process '(agentd-chat-status (":" agentd-chat-status)))
  (setq header-line-format '(:eval (agentd-chat--header-line))))

(defun agentd-chat--header-line ()
  "The header line: the session's title, context use and cost."
  (let ((usage agentd-chat-usage))
    (concat " " (or agentd-chat-title "")
            (when usage
              (let ((cost (plist-get usage :cost)))
                (format "  context %s/%s tokens%s"
                        (plist-get usage :used) (plist-get usage :size)
                        (if cost (format "  $%.4f" (plist-get cost :amount)) "")))))))

(defmacro agentd-chat--appending (&rest body)
  "Run BODY at the end of the buffer, writable.
Windows that showed the end of the buffer keep showing it."
  (declare (indent 0) (debug t))
  `(let ((inhibit-read-only t)
         (at-end (= (point) (point-max)))
         (following (cl-remove-if-not
                     (lambda (w) (= (window-point w) (point-max)))
                     (get-buffer-window-list nil nil t))))
     (save-excursion
       (goto-char (point-max))
       ,@body)
     (when at-end (goto-char (point-max)))
     (dolist (w following) (set-window-point w (point-max)))))

(defun agentd-chat--open-block (kind &optional id)
  "Make the end of the buffer ready for output of KIND (a symbol).
Text of the same KIND and message ID continues the current block;
anything else starts a new block, after a blank line (consecutive
tool calls are kept together).  Call at the end of the buffer."
  (let ((last agentd-chat--last-block))
    (unless (and (memq kind '(agent thought user))
                 (eq kind (car last))
                 (equal id (cdr last)))
      (unless (bobp)
        (unless (bolp) (insert "\n"))
        (unless (and (eq kind 'tool) (eq (car last) 'tool))
          (insert "\n")))
      (setq agentd-chat--last-block (cons kind id)))))

(defun agentd-chat--block-text (block)
  "Text to show for a content BLOCK (a plist) in a message."
  (pcase (plist-get block :type)
    ("text" (plist-get block :text))
    ("resource"
     (format "[context: %s]" (agentd-chat--short-uri
                              (plist-get (plist-get block :resource) :uri))))
    ("resource_link"
     (format "[link: %s]" (or (plist-get block :name) (plist-get block :uri))))
    ("image" "[image]")
    ("audio" "[audio]")
    (type (format "[%s]" type))))

(defun agentd-chat--short-uri (uri)
  "URI without the directory part of a file path, keeping a #L fragment."
  (if (and uri (string-match "\\`file://\\(?:.*/\\)?\\([^/]*\\)\\'" uri))
      (match-string 1 uri)
    uri))

(defun agentd-chat-insert-user (blocks &optional label)
  "Show a user message made of content BLOCKS (plists).
LABEL, when non-nil, says how it was sent (e.g. \"steer\")."
  (agentd-chat--appending
    (agentd-chat--open-block 'user-own)
    (let ((text (mapconcat #'agentd-chat--block-text blocks "\n")))
      (insert (propertize (concat "> " (if label (format "(%s) " label) "")
                                  (replace-regexp-in-string "\n" "\n> " text)
                                  "\n")
                          'face 'agentd-chat-user-face)))))

(defun agentd-chat--insert-chunk (kind update face)
  "Append the text of a chunk UPDATE as KIND output, in FACE."
  (let ((text (agentd-chat--block-text (plist-get update :content))))
    (agentd-chat--appending
      (agentd-chat--open-block kind (plist-get update :messageId))
      ;; A link or resource of a message goes on a line of its own.
      (unless (or (bolp) (equal (plist-get (plist-get update :content) :type) "text"))
        (insert "\n"))
      (when (and (eq kind 'user) (bolp))
        (insert (propertize "> " 'face face)))
      (insert (if face
                  (propertize (if (eq kind 'user)
                                  (replace-regexp-in-string "\n\\(.\\)" "\n> \\1" text)
                                text)
                              'face face)
                text)))))

(defun agentd-chat--tool-status-face (status)
  "Face for a tool call STATUS string."
  (pcase status
    ("completed" 'success)
    ("failed" 'agentd-chat-error-face)
    (_ 'agentd-chat-notice-face)))

(defun agentd-chat--tool-output (call)
  "Text of the content of tool CALL (a plist), for showing a failure."
  (let ((parts (delq nil (mapcar (lambda (item)
                                   (when (equal (plist-get item :type) "content")
                                     (agentd-chat--block-text (plist-get item :content))))
                                 (plist-get call :content)))))
    (when parts
      (let ((lines (split-string (string-trim (mapconcat #'identity parts "\n")) "\n")))
        (mapconcat (lambda (line) (concat "    " line))
                   (cl-loop for line in lines
                            repeat agentd-chat-tool-output-lines
                            collect line)
                   "\n")))))

(defun agentd-chat--tool-text (call)
  "The lines that show tool CALL (a plist of its merged state)."
  (let* ((status (or (plist-get call :status) "pending"))
         (output (and (equal status "failed") (agentd-chat--tool-output call))))
    (concat (propertize "[tool] " 'face 'shadow)
            (propertize (or (plist-get call :title) (plist-get call :toolCallId))
                        'face 'agentd-chat-tool-face)
            " "
            (propertize (format "(%s)" status) 'face (agentd-chat--tool-status-face status))
            "\n"
            (if output (concat (propertize output 'face 'agentd-chat-error-face) "\n") ""))))

(defun agentd-chat--merge (state update)
  "Return STATE of a tool call with the fields of UPDATE applied.
A field UPDATE leaves out or sets to null keeps its value."
  (let ((merged (copy-sequence state)))
    (cl-loop for (key value) on update by #'cddr
             unless (or (null value) (eq key :sessionUpdate))
             do (setq merged (plist-put merged key value)))
    merged))

(defun agentd-chat--find-tool-call (id)
  "Where the lines of tool call ID start, or nil."
  (let ((pos (point-min)) found)
    (while (and (not found) pos (< pos (point-max)))
      (if (equal (get-text-property pos 'agentd-tool-call) id)
          (setq found pos)
        (setq pos (next-single-property-change pos 'agentd-tool-call))))
    found))

(defun agentd-chat--tool-call (update)
  "Show a new tool call or redraw a known one with UPDATE applied.
A call's lines carry its id in the `agentd-tool-call' text property,
which is how a redraw finds them."
  (let* ((id (plist-get update :toolCallId))
         (state (agentd-chat--merge (gethash id agentd-chat--tool-calls) update))
         (text (propertize (agentd-chat--tool-text state) 'agentd-tool-call id))
         (start (agentd-chat--find-tool-call id)))
    (puthash id state agentd-chat--tool-calls)
    (if start
        (let ((inhibit-read-only t))
          (save-excursion
            (goto-char start)
            (delete-region start (next-single-property-change start 'agentd-tool-call
                                                              nil (point-max)))
            (insert text)))
      (agentd-chat--appending
        (agentd-chat--open-block 'tool id)
        (insert text)))))

(defun agentd-chat--plan (update)
  "Show the plan in UPDATE."
  (agentd-chat--appending
    (agentd-chat--open-block 'plan)
    (insert (propertize "Plan:\n" 'face 'bold))
    (dolist (entry (append (plist-get update :entries) nil))
      (insert (format "  [%s] %s\n"
                      (pcase (plist-get entry :status)
                        ("completed" "x") ("in_progress" "-") (_ " "))
                      (plist-get entry :content))))))

(defun agentd-chat-insert-notice (text &optional face)
  "Show TEXT on a line of its own, in FACE (a warning face by default)."
  (agentd-chat--appending
    (agentd-chat--open-block 'notice)
    (insert (propertize (concat text "\n") 'face (or face 'agentd-chat-notice-face)))))

(defun agentd-chat-handle-update (update)
  "Render one ACP session UPDATE (the `update' plist of `session/update')."
  (pcase (plist-get update :sessionUpdate)
    ("agent_message_chunk" (agentd-chat--insert-chunk 'agent update nil))
    ("agent_thought_chunk" (agentd-chat--insert-chunk 'thought update 'agentd-chat-thought-face))
    ("user_message_chunk" (agentd-chat--insert-chunk 'user update 'agentd-chat-user-face))
    ((or "tool_call" "tool_call_update") (agentd-chat--tool-call update))
    ("plan" (agentd-chat--plan update))
    ("usage_update" (setq agentd-chat-usage update) (force-mode-line-update))
    ("session_info_update"
     (when (stringp (plist-get update :title))
       (setq agentd-chat-title (plist-get update :title))
       (force-mode-line-update)))
    ("current_mode_update"
     (agentd-chat-insert-notice (format "mode: %s" (plist-get update :currentModeId)) 'shadow))
    ("notice"
     (agentd-chat-insert-notice (string-join (delq nil (list (plist-get update :title)
                                                             (plist-get update :description)))
                                             ": ")))
    (_ nil)))

(defun agentd-chat-describe-stop (stop-reason &optional meta error)
  "Say how a turn ended, from its STOP-REASON, response META and ERROR.
STOP-REASON is the `stopReason' string of the answer or event, META
its `_meta' plist, and ERROR a JSON-RPC error plist (or a string)
when the turn failed."
  (let ((outcome (plist-get (plist-get meta :agentd) :outcome))
        (detail (plist-get (plist-get meta :agentd) :message)))
    (cond
     (error (format "failed: %s" (if (stringp error)
                                     error
                                   (or (plist-get error :message) "unknown error"))))
     ((equal outcome "budget_exceeded")
      (format "out of budget%s" (if detail (concat ": " detail) "")))
     (t (pcase stop-reason
          ("end_turn" "done")
          ("cancelled" "cancelled")
          ("max_turn_requests" "out of turns or budget")
          ("max_tokens" "stopped at the output token limit")
          ("refusal" "refused by the model")
          (_ (format "ended (%s)" stop-reason)))))))

(defun agentd-chat-insert-turn-end (description &optional failed)
  "Close the turn with a line showing DESCRIPTION.
FAILED non-nil shows it as an error."
  (agentd-chat--appending
    (agentd-chat--open-block 'turn-end)
    (insert (propertize (format "--- %s\n" description)
                        'face (if failed 'agentd-chat-error-face 'agentd-chat-turn-end-face))))
  (setq agentd-chat--last-block nil))

(provide 'agentd-chat)
;;; agentd-chat.el ends here
