;;; agentd-session.el --- Sessions as this Emacs follows them  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 agentd contributors
;; SPDX-License-Identifier: MIT

;; This file is part of the agentd Emacs package; see agentd.el.

;;; Commentary:

;; The sessions this Emacs shows, each with its chat buffer, and what happens
;; to them as the daemon reports: updates rendered into the buffer, turns
;; starting and ending.  A turn's end is shown once.  For a turn our own
;; `session/prompt' started, its answer shows it (it says more: the budget
;; outcome, the error); for any other turn (another client's prompt, a steer
;; into an idle session, a session joined while it runs) the `turn_end'
;; event does, which needs `_meta.agentd.events' at initialize.

;;; Code:

(require 'cl-lib)
(require 'agentd-chat)

(defvar agentd-update-functions nil
  "Functions called with SESSION and UPDATE for each `session/update'.
SESSION is an `agentd-session', UPDATE the update plist.")

(defvar agentd-turn-end-functions nil
  "Functions called with SESSION and a description when a turn ends.")

(cl-defstruct (agentd-session (:constructor agentd-session--make))
  "A session this Emacs shows in a chat buffer."
  (id nil :documentation "The daemon's session id.")
  (cwd nil :documentation "The session's working directory.")
  (buffer nil :documentation "The chat buffer.")
  (loaded nil :documentation "Non-nil once `session/new' or `session/load' answered.")
  (running nil :documentation "Non-nil while a turn runs.")
  (prompting nil :documentation "Non-nil while our `session/prompt' awaits its answer.")
  (own-turn nil :documentation "Turn id of the turn our pending prompt started.")
  (ended-turns nil :documentation "Ids of turns whose end is already shown.")
  (last-stop nil :documentation "How the last turn ended (a description string)."))

(defvar agentd-session--table (make-hash-table :test #'equal)
  "Sessions shown in this Emacs, by session id.")

(defvar agentd-session--last nil
  "The session the last command used, for commands run outside a chat buffer.")

(defvar-local agentd-session--local nil
  "The `agentd-session' of this chat buffer.")

(defmacro agentd-session-in-chat (session &rest body)
  "Run BODY in the chat buffer of SESSION, if it has a live one."
  (declare (indent 1) (debug t))
  (let ((buffer (make-symbol "buffer")))
    `(let ((,buffer (and ,session (agentd-session-buffer ,session))))
       (when (buffer-live-p ,buffer)
         (with-current-buffer ,buffer ,@body)))))

(defun agentd-session-get (id)
  "Return the session ID, or nil when this Emacs does not follow it."
  (gethash id agentd-session--table))

(defun agentd-session-register (id cwd)
  "The session ID working in CWD, with a fresh chat buffer if it has none.
It becomes the session commands outside a chat buffer act on."
  (let ((session (or (agentd-session-get id)
                     (puthash id (agentd-session--make :id id :cwd cwd)
                              agentd-session--table))))
    (unless (buffer-live-p (agentd-session-buffer session))
      (let ((buffer (generate-new-buffer
                     (format "*agentd: %s*" (file-name-nondirectory (directory-file-name cwd))))))
        (with-current-buffer buffer
          (agentd-chat-mode)
          (setq default-directory (file-name-as-directory cwd))
          (setq agentd-session--local session)
          (add-hook 'kill-buffer-hook #'agentd-session--forget nil t))
        (setf (agentd-session-buffer session) buffer)))
    (setq agentd-session--last session)))

(defun agentd-session--forget ()
  "Forget the session of the chat buffer being killed.
The session stays stored in the daemon."
  (when agentd-session--local
    (remhash (agentd-session-id agentd-session--local) agentd-session--table)
    (when (eq agentd-session--last agentd-session--local)
      (setq agentd-session--last nil))))

(defun agentd-session-current ()
  "The session to act on: this chat buffer's, else the last one used, or nil."
  (let ((session (or agentd-session--local agentd-session--last)))
    (when (and session (buffer-live-p (agentd-session-buffer session)))
      (setq agentd-session--last session))))

(defun agentd-session-display (session)
  "Show the chat buffer of SESSION."
  (display-buffer (agentd-session-buffer session)))

(defun agentd-session-set-running (session running)
  "Mark SESSION as RUNNING a turn or not."
  (setf (agentd-session-running session) running)
  (agentd-session-in-chat session
    (setq agentd-chat-status (and running "running"))
    (force-mode-line-update)))

(defun agentd-session-stop-all ()
  "Mark every session as not running (the connection is gone)."
  (maphash (lambda (_id session)
             (when (agentd-session-running session)
               (agentd-session-set-running session nil)))
           agentd-session--table))

(defun agentd-session-mark-loaded (session result)
  "SESSION's `session/new' or `session/load' answered with RESULT."
  (setf (agentd-session-loaded session) t)
  (when (equal (plist-get (plist-get (plist-get result :_meta) :agentd) :state) "running")
    (agentd-session-set-running session t)))

(defun agentd-session-handle-update (session update)
  "Render UPDATE (a `session/update' update plist) in SESSION's chat buffer."
  (agentd-session-in-chat session (agentd-chat-handle-update update))
  (run-hook-with-args 'agentd-update-functions session update))

(defun agentd-session-prompt-sent (session)
  "Our `session/prompt' to SESSION is on its way."
  (setf (agentd-session-prompting session) t
        (agentd-session-own-turn session) nil)
  (agentd-session-set-running session t))

(defun agentd-session-prompt-answered (session result error)
  "Our prompt in SESSION was answered with RESULT, or failed with ERROR."
  (let ((turn (agentd-session-own-turn session)))
    (setf (agentd-session-prompting session) nil
          (agentd-session-own-turn session) nil)
    (agentd-session-set-running session nil)
    (unless (and turn (member turn (agentd-session-ended-turns session)))
      (agentd-session--end-turn session turn
                                (agentd-chat-describe-stop (plist-get result :stopReason)
                                                           (plist-get result :_meta) error)
                                error))))

(defun agentd-session--end-turn (session turn description failed)
  "Show that TURN of SESSION ended as DESCRIPTION (FAILED if it failed)."
  (when turn
    (push turn (agentd-session-ended-turns session)))
  (setf (agentd-session-last-stop session) description)
  (agentd-session-in-chat session (agentd-chat-insert-turn-end description failed))
  (run-hook-with-args 'agentd-turn-end-functions session description))

(defun agentd-session-handle-event (session event)
  "Handle an `agentd/event' EVENT (a plist) of SESSION."
  (pcase (plist-get event :type)
    ("turn_start"
     (when (and (agentd-session-prompting session) (not (agentd-session-own-turn session)))
       (setf (agentd-session-own-turn session) (plist-get event :turnId)))
     (agentd-session-set-running session t))
    ("turn_end"
     (let ((turn (plist-get event :turnId)))
       (agentd-session-set-running session nil)
       (unless (or (and (agentd-session-prompting session)
                        (member (agentd-session-own-turn session) (list nil turn)))
                   (member turn (agentd-session-ended-turns session)))
         (agentd-session--end-turn session turn
                                   (agentd-chat-describe-stop (plist-get event :stopReason) nil
                                                              (plist-get event :error))
                                   (plist-get event :error)))))
    ("notice"
     (agentd-session-in-chat session
       (agentd-chat-insert-notice (format "%s: %s" (plist-get event :level)
                                          (plist-get event :message))
                                  (and (equal (plist-get event :level) "error")
                                       'agentd-chat-error-face))))
    ("retry"
     (agentd-session-in-chat session
       (agentd-chat-insert-notice (format "retrying (attempt %s): %s"
                                          (plist-get event :attempt) (plist-get event :reason)))))
    ("fallback"
     (agentd-session-in-chat session
       (agentd-chat-insert-notice (format "falling back to %s: %s"
                                          (plist-get event :to) (plist-get event :reason)))))))

(provide 'agentd-session)
;;; agentd-session.el ends here
