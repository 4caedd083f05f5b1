;;; agentd-rpc.el --- The JSON-RPC connection to agentd  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 agentd contributors
;; SPDX-License-Identifier: MIT

;; This file is part of the agentd Emacs package; see agentd.el.

;;; Commentary:

;; The connection to the daemon: a `jsonrpc-process-connection' on a spawned
;; `agentd-command' (jsonrpc.el speaks Content-Length framing, which the
;; daemon detects per connection), started and initialized in one call, and
;; closed by ending its standard input.  Its one addition to jsonrpc.el:
;; a request dispatcher may answer later (see `agentd-rpc-defer'), so that a
;; question to the user is asked from a timer, not inside the process filter
;; where more output from the daemon could re-enter it.  Nothing here knows
;; about sessions.

;;; Code:

(require 'cl-lib)
(require 'jsonrpc)
(require 'subr-x)

(defclass agentd-rpc-connection (jsonrpc-process-connection) ()
  :documentation "A JSON-RPC connection to agentd.
Its request dispatcher may return an object made by
`agentd-rpc-defer': the answer is then computed in a timer and
sent when it is ready.")

(cl-defstruct (agentd-rpc--deferred (:constructor agentd-rpc-defer (thunk)))
  "An answer to a daemon request, computed later by calling THUNK.
THUNK returns the result; an error it signals is answered as a
JSON-RPC InternalError, a quit as RequestCancelled."
  thunk)

(cl-defmethod jsonrpc-connection-send :around ((conn agentd-rpc-connection)
                                               &key id result &allow-other-keys)
  "Send a message on CONN; hold back a deferred RESULT for request ID."
  (if (agentd-rpc--deferred-p result)
      (run-at-time 0 nil #'agentd-rpc--answer-later conn id (agentd-rpc--deferred-thunk result))
    (cl-call-next-method)))

(defun agentd-rpc--answer-later (conn id thunk)
  "Answer request ID on CONN with the result of calling THUNK."
  (let ((reply (condition-case err
                   (list :result (funcall thunk))
                 (quit (list :error (list :code -32800 :message "Cancelled in Emacs")))
                 (error (list :error (list :code -32603
                                           :message (error-message-string err)))))))
    (when (jsonrpc-running-p conn)
      (apply #'jsonrpc-connection-send conn :id id reply))))

(defun agentd-rpc-connect (command init-params timeout &rest initargs)
  "Start COMMAND, send `initialize' with INIT-PARAMS and return the connection.
Wait at most TIMEOUT seconds for the answer.  INITARGS are passed to
`make-instance' (dispatchers, `:on-shutdown', ...).  The process is
named \"agentd\" and its standard error goes to `*agentd stderr*'."
  (let* ((default-directory (if (file-remote-p default-directory) "~/" default-directory))
         (conn (apply #'make-instance
                      'agentd-rpc-connection
                      :name "agentd"
                      :process
                      (lambda ()
                        (make-process :name "agentd"
                                      :command command
                                      :connection-type 'pipe
                                      :coding 'utf-8-emacs-unix
                                      :noquery t
                                      ;; jsonrpc.el looks for stderr in this buffer.
                                      :stderr (get-buffer-create "*agentd stderr*")))
                      initargs)))
    (condition-case err
        (progn (jsonrpc-request conn :initialize init-params :timeout timeout)
               conn)
      (error
       (ignore-errors (jsonrpc-shutdown conn))
       (error "Could not start agentd (%s): %s" (string-join command " ")
              (error-message-string err))))))

(defun agentd-rpc-process (conn)
  "The process behind CONN."
  (jsonrpc--process conn))

(defun agentd-rpc-close (conn &optional seconds)
  "Close CONN: end the process's input and wait up to SECONDS for it to exit.
The daemon, or the bridge to the shared daemon, then ends on its
own; it is killed if it is still running after SECONDS (default 5)."
  (let ((proc (agentd-rpc-process conn))
        (deadline (+ (float-time) (or seconds 5))))
    (when (process-live-p proc)
      (ignore-errors (process-send-eof proc))
      (while (and (process-live-p proc) (< (float-time) deadline))
        (accept-process-output proc 0.05)))
    (jsonrpc-shutdown conn)))

(provide 'agentd-rpc)
;;; agentd-rpc.el ends here
