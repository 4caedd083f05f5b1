;;; agentd.el --- Client for the agentd agent runtime  -*- lexical-binding: t; -*-

;; Copyright (C) 2025 agentd contributors
;; SPDX-License-Identifier: MIT

;; Author: agentd contributors
;; Version: 0.1.0
;; Package-Requires: ((emacs "27.1") (jsonrpc "1.0.9"))
;; Keywords: tools, processes, convenience

;;; Commentary:

;; agentd is a long-running agent runtime that editors drive over JSON-RPC
;; (a superset of the Agent Client Protocol).  This package talks to it
;; through the built-in `jsonrpc' library, the way Eglot talks to a language
;; server: it spawns `agentd acp' (`agentd-command'), which connects to the
;; shared daemon of the data directory and starts it when none runs, so
;; every editor shares the same sessions.
;;
;; Commands:
;;
;;   `agentd-new-session'  start a session in the current project
;;   `agentd-sessions'     pick a stored session and load it
;;   `agentd-prompt'       send a prompt (with the region as context)
;;   `agentd-steer'        deliver a message into the running turn
;;   `agentd-follow-up'    queue a message for when the turn would end
;;   `agentd-abort'        stop the running turn now
;;   `agentd-cancel'       ask the running turn to stop (ACP cancel)
;;   `agentd-shutdown'     close the connection
;;
;; Each session has a chat buffer in `agentd-chat-mode' where answers stream
;; in.  Prompts never block Emacs: the turn runs in the background and its
;; end is shown when the daemon answers.  Permission questions go through
;; `agentd-permission-function'.

;;; Code:

(require 'cl-lib)
(require 'jsonrpc)
(require 'subr-x)
(require 'url-util)
(require 'agentd-chat)
(require 'agentd-diff)
(require 'agentd-rpc)
(require 'agentd-session)

(defconst agentd-version "0.1.0"
  "Version of the agentd Emacs package.")

(defgroup agentd nil
  "Client for the agentd agent runtime."
  :group 'tools
  :prefix "agentd-")

(defcustom agentd-command '("agentd" "acp")
  "Command that reaches agentd on stdio: the program and its arguments.
`agentd acp' connects to the shared daemon of the data directory,
starting it when none runs, so every editor shares its sessions.
`(\"agentd\" \"serve\" \"--stdio\")' runs a daemon for this Emacs alone
when no shared one runs."
  :type '(repeat string)
  :group 'agentd)

(defcustom agentd-permission-function #'agentd-permission-completing-read
  "Function that answers a permission question from the daemon.
It is called with TOOL-CALL and OPTIONS, plists as sent in
`session/request_permission' (OPTIONS a list of plists with
`:optionId', `:name' and `:kind'), and returns the chosen
`:optionId' string, or nil to answer that the request was
cancelled.  It runs from a timer, outside the process filter."
  :type 'function
  :group 'agentd)

(defcustom agentd-request-timeout 30
  "Seconds to wait for the answer to a short request (not a turn)."
  :type 'number
  :group 'agentd)

(defcustom agentd-events-buffer-size 100000
  "Size in characters of the `*agentd events*' log; 0 disables it."
  :type 'integer
  :group 'agentd)

(defvar agentd--connection nil
  "The live `agentd-rpc-connection', or nil.")

;;; Connection

(defun agentd--live-connection ()
  "The connection to agentd, started and initialized if needed."
  (unless (and agentd--connection (jsonrpc-running-p agentd--connection))
    (setq agentd--connection
          (agentd-rpc-connect
           agentd-command
           (list :protocolVersion 1
                 :clientCapabilities (list :fs (list :readTextFile :json-false
                                                     :writeTextFile :json-false)
                                           :terminal :json-false)
                 :clientInfo (list :name "agentd.el" :version agentd-version)
                 :_meta (list :agentd (list :events t)))
           agentd-request-timeout
           :events-buffer-scrollback-size agentd-events-buffer-size
           :request-dispatcher #'agentd--handle-request
           :notification-dispatcher #'agentd--handle-notification
           :on-shutdown #'agentd--on-shutdown)))
  agentd--connection)

(defun agentd--on-shutdown (conn)
  "Forget CONN, whose process is gone, and mark every session as not running."
  (when (eq conn agentd--connection)
    (setq agentd--connection nil))
  (agentd-session-stop-all))

;;;###autoload
(defun agentd-shutdown ()
  "Close the connection to agentd.
Its standard input is closed so the daemon (or the bridge to the
shared daemon) ends on its own; it is killed if it has not after a
few seconds.  Sessions stay stored in the daemon."
  (interactive)
  (when-let ((conn agentd--connection))
    (agentd-rpc-close conn)
    (setq agentd--connection nil)))


;;; Requests and notifications from the daemon

(defun agentd--handle-request (_conn method params)
  "Answer the daemon's request METHOD with PARAMS."
  (pcase method
    ('session/request_permission
     (agentd-rpc-defer (lambda () (agentd--ask-permission params))))
    (_ (jsonrpc-error :code -32601 :message (format "agentd.el does not serve %s" method)))))

(defun agentd--ask-permission (params)
  "The `session/request_permission' answer to PARAMS, asking the user."
  (let* ((tool-call (plist-get params :toolCall))
         (options (append (plist-get params :options) nil))
         (session (agentd-session-get (plist-get params :sessionId)))
         (change (agentd-diff-proposed-change tool-call (and session (agentd-session-cwd session))))
         ;; The proposed change goes in the chat first, to be read while answering.
         (_ (when change
              (agentd-session-in-chat session (agentd-chat-insert-notice (string-join change "\n") 'shadow))))
         ;; Quitting the question answers it as cancelled.
         (choice (condition-case nil
                     (funcall agentd-permission-function tool-call options)
                   (quit nil)))
         (chosen (cl-find choice options :key (lambda (o) (plist-get o :optionId)) :test #'equal)))
    (agentd-session-in-chat session
      (agentd-chat-insert-notice
       (format "permission for %s: %s" (or (plist-get tool-call :title) "a tool call")
               (if chosen (plist-get chosen :name) "cancelled"))
       'shadow))
    (if chosen
        (list :outcome (list :outcome "selected" :optionId choice))
      (list :outcome (list :outcome "cancelled")))))

(defun agentd-permission-completing-read (tool-call options)
  "Ask which of OPTIONS to answer for TOOL-CALL, with `completing-read'.
Return the chosen option's id, or nil when the answer is empty."
  (let* ((reason (plist-get (plist-get (plist-get tool-call :_meta) :agentd) :reason))
         (names (mapcar (lambda (o) (cons (plist-get o :name) (plist-get o :optionId))) options))
         ;; The question may come while the minibuffer is in use.
         (enable-recursive-minibuffers t)
         (choice (completing-read
                  (format "agentd: %s%s? " (or (plist-get tool-call :title) "Run a tool")
                          (if reason (format " (%s)" reason) ""))
                  names nil t)))
    (cdr (assoc choice names))))

(defun agentd--handle-notification (_conn method params)
  "Handle the daemon's notification METHOD with PARAMS."
  (let ((session (agentd-session-get (plist-get params :sessionId))))
    (when session
      (pcase method
        ('session/update (agentd-session-handle-update session (plist-get params :update)))
        ('agentd/event (agentd-session-handle-event session (plist-get params :event)))))))


;;; Sessions

(declare-function project-root "project" (project))
(declare-function project-roots "project" (project))

(defun agentd--default-directory ()
  "Directory for a new session: the project root, else `default-directory'."
  (let ((project (and (fboundp 'project-current) (project-current))))
    (expand-file-name
     (cond ((and project (fboundp 'project-root)) (project-root project))
           (project (car (with-no-warnings (project-roots project))))
           (t default-directory)))))

(defun agentd--current-session (&optional create)
  "The session to act on: this chat buffer's, else the last one used.
With CREATE, start one when there is none; otherwise signal a `user-error'."
  (or (agentd-session-current)
      (and create (agentd-new-session (agentd--default-directory)))
      (user-error "No agentd session: start one with M-x agentd-new-session")))

;;;###autoload
(defun agentd-new-session (directory)
  "Start an agentd session working in DIRECTORY and show its chat buffer.
Interactively, the current project's root; with a prefix argument,
ask for the directory."
  (interactive (list (if current-prefix-arg
                         (read-directory-name "Session directory: ")
                       (agentd--default-directory))))
  (when (file-remote-p directory)
    (user-error "The agentd daemon runs locally: %s is a remote directory" directory))
  (let* ((cwd (directory-file-name (expand-file-name directory)))
         (result (jsonrpc-request (agentd--live-connection) :session/new
                                  (list :cwd cwd :mcpServers [])
                                  :timeout agentd-request-timeout))
         (session (agentd-session-register (plist-get result :sessionId) cwd)))
    (agentd-session-mark-loaded session result)
    (agentd-session-display session)
    session))

(defun agentd--list-sessions ()
  "Every stored session, newest first, as plists (`SessionInfo')."
  (let ((conn (agentd--live-connection)) (cursor nil) (sessions nil) (first t))
    (while (or first cursor)
      (let ((page (jsonrpc-request conn :session/list
                                   (if cursor (list :cursor cursor) (make-hash-table))
                                   :timeout agentd-request-timeout)))
        (setq first nil
              sessions (append sessions (append (plist-get page :sessions) nil))
              cursor (plist-get page :nextCursor))))
    sessions))

(defun agentd--session-label (info)
  "How session INFO (a `SessionInfo' plist) appears in `agentd-sessions'."
  (format "%s  [%s]  %s  %s"
          (or (plist-get info :title) "(untitled)")
          (abbreviate-file-name (plist-get info :cwd))
          (or (plist-get info :updatedAt) "")
          (plist-get info :sessionId)))

;;;###autoload
(defun agentd-sessions ()
  "Pick a stored session with `completing-read' and load it into a chat buffer."
  (interactive)
  (let* ((sessions (or (agentd--list-sessions) (user-error "No stored agentd sessions")))
         (labels (mapcar (lambda (info) (cons (agentd--session-label info) info)) sessions))
         (table (lambda (string pred action)
                  (if (eq action 'metadata)
                      '(metadata (display-sort-function . identity)
                                 (category . agentd-session))
                    (complete-with-action action labels string pred))))
         (info (cdr (assoc (completing-read "Load agentd session: " table nil t) labels))))
    (unless info (user-error "No session chosen"))
    (agentd-load-session (plist-get info :sessionId) (plist-get info :cwd))))

(defun agentd-load-session (id cwd)
  "Load session ID (working in CWD): replay its history, then follow it live.
A session already shown in a chat buffer is only displayed."
  (let ((known (agentd-session-get id)))
    (if (and known (buffer-live-p (agentd-session-buffer known)))
        (progn (agentd-session-display known) (setq agentd-session--last known))
      (let ((session (agentd-session-register id cwd)))
        (jsonrpc-async-request
         (agentd--live-connection) :session/load
         (list :sessionId id :cwd cwd :mcpServers [])
         :success-fn (lambda (result) (agentd-session-mark-loaded session result))
         :error-fn (lambda (error)
                     (agentd-session-in-chat session
                       (agentd-chat-insert-notice
                        (format "could not load the session: %s" (plist-get error :message))
                        'agentd-chat-error-face)))
         :timeout nil)
        (agentd-session-display session)
        session))))


;;; Prompting

(defun agentd--file-uri (file)
  "The file: URI of FILE."
  (concat "file://" (url-hexify-string (expand-file-name file) url-path-allowed-chars)))

(defun agentd--region-block (beg end)
  "A `resource' content block with the current buffer's text from BEG to END.
Its URI is the file's, with the lines as a fragment: `#L<first>:<last>',
1-based and inclusive; a region that ends at the start of a line does
not count that line."
  (let* ((beg (min beg end))
         (end (max beg end))
         (first (line-number-at-pos beg t))
         (last (line-number-at-pos (if (and (> end beg)
                                            (save-excursion (goto-char end) (bolp)))
                                       (1- end)
                                     end)
                                   t))
         (base (if buffer-file-name
                   (agentd--file-uri buffer-file-name)
                 (concat "untitled:" (url-hexify-string (buffer-name))))))
    (list :type "resource"
          :resource (list :uri (format "%s#L%d:%d" base first last)
                          :text (buffer-substring-no-properties beg end)))))

(defun agentd--read-message (prompt)
  "Read a message with PROMPT; an empty one is refused."
  (let ((text (read-string prompt)))
    (when (string-empty-p (string-trim text)) (user-error "Nothing to send"))
    text))

;;;###autoload
(defun agentd-prompt (text &optional beg end)
  "Send TEXT to the current agentd session and stream the answer.
With BEG and END (interactively, an active region), the text between
them is sent along as a `resource' block naming the file and lines.
The turn runs in the background; the chat buffer shows its end."
  (interactive (let ((region (use-region-p)))
                 (list (agentd--read-message (if region "agentd (with region): " "agentd: "))
                       (and region (region-beginning))
                       (and region (region-end)))))
  (let* ((context (and beg end (agentd--region-block beg end)))
         (session (agentd--current-session t))
         (blocks (delq nil (list (list :type "text" :text text) context))))
    (when (agentd-session-running session)
      (user-error "A turn is running: use agentd-steer or agentd-follow-up"))
    (when (called-interactively-p 'any) (deactivate-mark))
    (agentd-session-in-chat session (agentd-chat-insert-user blocks))
    (agentd-session-display session)
    (agentd-session-prompt-sent session)
    (jsonrpc-async-request
     (agentd--live-connection) :session/prompt
     (list :sessionId (agentd-session-id session) :prompt (vconcat blocks))
     :success-fn (lambda (result) (agentd-session-prompt-answered session result nil))
     :error-fn (lambda (error) (agentd-session-prompt-answered session nil error))
     ;; A turn takes as long as it takes.
     :timeout nil)
    session))

(defun agentd--queue (method session text label &rest params)
  "Send TEXT to SESSION with METHOD (steer or follow-up), shown with LABEL.
PARAMS are added to the request's params."
  (agentd-session-in-chat session (agentd-chat-insert-user (list (list :type "text" :text text)) label))
  (jsonrpc-async-request
   (agentd--live-connection) method
   (append (list :sessionId (agentd-session-id session)
                 :prompt (vector (list :type "text" :text text)))
           params)
   :success-fn (lambda (result)
                 (message "agentd: %s queued (%s waiting)" label (plist-get result :queued)))
   :error-fn (lambda (error) (message "agentd: %s failed: %s" label (plist-get error :message)))
   :timeout agentd-request-timeout))

;;;###autoload
(defun agentd-steer (text &optional interrupt)
  "Deliver TEXT into the running turn at its next safe point.
With INTERRUPT (interactively, a prefix argument), end the model's
response in flight at once so it sees TEXT now."
  (interactive (list (agentd--read-message (if current-prefix-arg "Steer now: " "Steer: "))
                     current-prefix-arg))
  (let ((session (agentd--current-session)))
    (apply #'agentd--queue :session/steer session text (if interrupt "steer now" "steer")
           (and interrupt (list :interrupt t)))))

;;;###autoload
(defun agentd-follow-up (text)
  "Queue TEXT for when the agent would otherwise stop.
The turn then continues with TEXT instead of ending."
  (interactive (list (agentd--read-message "Follow-up: ")))
  (agentd--queue :session/followUp (agentd--current-session) text "follow-up"))

;;;###autoload
(defun agentd-abort ()
  "Stop the running turn now: model stream, tools and pending questions.
Queued steering and follow-up messages are dropped."
  (interactive)
  (let ((session (agentd--current-session)))
    (jsonrpc-async-request
     (agentd--live-connection) :session/abort
     (list :sessionId (agentd-session-id session))
     :success-fn (lambda (_result) (message "agentd: turn stopped"))
     :error-fn (lambda (error) (message "agentd: abort failed: %s" (plist-get error :message)))
     :timeout agentd-request-timeout)))

;;;###autoload
(defun agentd-cancel ()
  "Ask the running turn to stop (ACP `session/cancel')."
  (interactive)
  (jsonrpc-notify (agentd--live-connection) :session/cancel
                  (list :sessionId (agentd-session-id (agentd--current-session)))))

(provide 'agentd)
;;; agentd.el ends here
