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
;; server: it spawns `agentd serve --stdio' (`agentd-command'), which serves
;; the session itself or, when a shared daemon owns the data directory and
;; listens on its socket, passes the connection on to that daemon.
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

(defconst agentd-version "0.1.0"
  "Version of the agentd Emacs package.")

(defgroup agentd nil
  "Client for the agentd agent runtime."
  :group 'tools
  :prefix "agentd-")

(defcustom agentd-command '("agentd" "serve" "--stdio")
  "Command that starts agentd on stdio: the program and its arguments.
When a shared daemon owns the data directory and serves its socket,
`agentd serve --stdio' passes the connection on to it."
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

(defvar agentd--connection nil
  "The live `agentd-connection', or nil.")

(defvar agentd--sessions (make-hash-table :test #'equal)
  "Sessions shown in this Emacs, by session id.")

(defvar agentd--last-session nil
  "The session the last command used, for commands run outside a chat buffer.")

(defvar-local agentd--session nil
  "The `agentd-session' of this chat buffer.")


(defmacro agentd--in-chat (session &rest body)
  "Run BODY in the chat buffer of SESSION, if it has a live one."
  (declare (indent 1) (debug t))
  (let ((buffer (make-symbol "buffer")))
    `(let ((,buffer (and ,session (agentd-session-buffer ,session))))
       (when (buffer-live-p ,buffer)
         (with-current-buffer ,buffer ,@body)))))

;;; Connection

(defclass agentd-connection (jsonrpc-process-connection) ()
  :documentation "A JSON-RPC connection to agentd.
Its request dispatcher may return an `agentd--deferred' object: the
answer is then computed in a timer and sent later, so a question to
the user never runs inside the process filter.")

(cl-defstruct (agentd--deferred (:constructor agentd--deferred-make (thunk)))
  "An answer to a daemon request, computed later by calling THUNK."
  thunk)

(cl-defmethod jsonrpc-connection-send :around ((conn agentd-connection)
                                               &key id result &allow-other-keys)
  "Send a message on CONN; hold back a deferred RESULT for request ID."
  (if (agentd--deferred-p result)
      (run-at-time 0 nil #'agentd--answer-later conn id (agentd--deferred-thunk result))
    (cl-call-next-method)))

(defun agentd--answer-later (conn id thunk)
  "Answer request ID on CONN with the result of calling THUNK."
  (let ((reply (condition-case err
                   (list :result (funcall thunk))
                 (quit (list :result '(:outcome (:outcome "cancelled"))))
                 (error (list :error (list :code -32603
                                           :message (error-message-string err)))))))
    (when (jsonrpc-running-p conn)
      (apply #'jsonrpc-connection-send conn :id id reply))))

(defun agentd--live-connection ()
  "The connection to agentd, started and initialized if needed."
  (unless (and agentd--connection (jsonrpc-running-p agentd--connection))
    (setq agentd--connection (agentd--connect)))
  agentd--connection)

(defun agentd--connect ()
  "Start `agentd-command', initialize it and return the connection."
  (let* ((default-directory (if (file-remote-p default-directory) "~/" default-directory))
         (conn (make-instance
                'agentd-connection
                :name "agentd"
                :events-buffer-scrollback-size agentd-events-buffer-size
                :request-dispatcher #'agentd--handle-request
                :notification-dispatcher #'agentd--handle-notification
                :on-shutdown #'agentd--on-shutdown
                :process
                (lambda ()
                  (make-process :name "agentd"
                                :command agentd-command
                                :connection-type 'pipe
                                :coding 'utf-8-emacs-unix
                                :noquery t
                                ;; jsonrpc.el looks for stderr in this buffer.
                                :stderr (get-buffer-create "*agentd stderr*"))))))
    (condition-case err
        (jsonrpc-request
         conn :initialize
         (list :protocolVersion 1
               :clientCapabilities (list :fs (list :readTextFile :json-false
                                                   :writeTextFile :json-false)
                                         :terminal :json-false)
               :clientInfo (list :name "agentd.el" :version agentd-version)
               :_meta (list :agentd (list :events t)))
         :timeout agentd-request-timeout)
      (error
       (ignore-errors (jsonrpc-shutdown conn))
       (error "Could not start agentd (%s): %s" (string-join agentd-command " ")
              (error-message-string err))))
    conn))

(defun agentd--on-shutdown (conn)
  "Forget CONN once its process is gone; running sessions stop showing as such."
  (when (eq conn agentd--connection)
    (setq agentd--connection nil))
  (maphash (lambda (_id session)
             (when (agentd-session-running session)
               (agentd--set-running session nil)))
           agentd--sessions))

(defun agentd--process (conn)
  "The process behind CONN."
  (jsonrpc--process conn))

;;;###autoload
(defun agentd-shutdown ()
  "Close the connection to agentd.
Its standard input is closed so the daemon (or the bridge to the
shared daemon) ends on its own; it is killed if it has not after a
few seconds.  Sessions stay stored in the daemon."
  (interactive)
  (when-let ((conn agentd--connection))
    (let ((proc (agentd--process conn))
          (deadline (+ (float-time) 5)))
      (when (process-live-p proc)
        (ignore-errors (process-send-eof proc))
        (while (and (process-live-p proc) (< (float-time) deadline))
          (accept-process-output proc 0.05)))
      (jsonrpc-shutdown conn)
      (setq agentd--connection nil))))


;;; Requests and notifications from the daemon

(defun agentd--handle-request (_conn method params)
  "Answer the daemon's request METHOD with PARAMS."
  (pcase method
    ('session/request_permission
     (agentd--deferred-make (lambda () (agentd--ask-permission params))))
    (_ (jsonrpc-error :code -32601 :message (format "agentd.el does not serve %s" method)))))

(defun agentd--ask-permission (params)
  "The `session/request_permission' answer to PARAMS, asking the user."
  (let* ((tool-call (plist-get params :toolCall))
         (options (append (plist-get params :options) nil))
         (choice (funcall agentd-permission-function tool-call options))
         (chosen (cl-find choice options :key (lambda (o) (plist-get o :optionId)) :test #'equal))
         (session (gethash (plist-get params :sessionId) agentd--sessions)))
    (agentd--in-chat session
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
         (choice (completing-read
                  (format "agentd: %s%s? " (or (plist-get tool-call :title) "Run a tool")
                          (if reason (format " (%s)" reason) ""))
                  names nil t)))
    (cdr (assoc choice names))))

(defun agentd--handle-notification (_conn method params)
  "Handle the daemon's notification METHOD with PARAMS."
  (let ((session (gethash (plist-get params :sessionId) agentd--sessions)))
    (when session
      (pcase method
        ('session/update
         (let ((update (plist-get params :update)))
           (agentd--in-chat session (agentd-chat-handle-update update))
           (run-hook-with-args 'agentd-update-functions session update)))
        ('agentd/event (agentd--handle-event session (plist-get params :event)))))))

(defun agentd--handle-event (session event)
  "Handle an `agentd/event' EVENT of SESSION."
  (pcase (plist-get event :type)
    ("turn_start"
     (when (and (agentd-session-prompting session) (not (agentd-session-own-turn session)))
       (setf (agentd-session-own-turn session) (plist-get event :turnId)))
     (agentd--set-running session t))
    ("turn_end"
     (let ((turn (plist-get event :turnId)))
       (agentd--set-running session nil)
       ;; Our own prompt's answer says more (budget, the error): it shows that turn's end.
       (unless (or (and (agentd-session-prompting session)
                        (member (agentd-session-own-turn session) (list nil turn)))
                   (member turn (agentd-session-ended-turns session)))
         (agentd--end-turn session turn
                           (agentd-chat-describe-stop (plist-get event :stopReason) nil
                                                      (plist-get event :error))
                           (plist-get event :error)))))
    ("notice"
     (agentd--in-chat session
       (agentd-chat-insert-notice (format "%s: %s" (plist-get event :level) (plist-get event :message))
                                  (and (equal (plist-get event :level) "error")
                                       'agentd-chat-error-face))))
    ("retry"
     (agentd--in-chat session
       (agentd-chat-insert-notice (format "retrying (attempt %s): %s"
                                          (plist-get event :attempt) (plist-get event :reason)))))
    ("fallback"
     (agentd--in-chat session
       (agentd-chat-insert-notice (format "falling back to %s: %s"
                                          (plist-get event :to) (plist-get event :reason)))))))

(defun agentd--set-running (session running)
  "Mark SESSION as RUNNING a turn or not."
  (setf (agentd-session-running session) running)
  (agentd--in-chat session
    (setq agentd-chat-status (and running "running"))
    (force-mode-line-update)))

(defun agentd--end-turn (session turn description failed)
  "Show that TURN of SESSION ended as DESCRIPTION (FAILED if it failed)."
  (when turn
    (push turn (agentd-session-ended-turns session)))
  (setf (agentd-session-last-stop session) description)
  (agentd--in-chat session (agentd-chat-insert-turn-end description failed))
  (run-hook-with-args 'agentd-turn-end-functions session description))


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

(defun agentd--register (id cwd)
  "The session ID working in CWD, with a fresh chat buffer if it has none."
  (let ((session (or (gethash id agentd--sessions)
                     (puthash id (agentd-session--make :id id :cwd cwd) agentd--sessions))))
    (unless (buffer-live-p (agentd-session-buffer session))
      (let ((buffer (generate-new-buffer
                     (format "*agentd: %s*" (file-name-nondirectory (directory-file-name cwd))))))
        (with-current-buffer buffer
          (agentd-chat-mode)
          (setq default-directory (file-name-as-directory cwd))
          (setq agentd--session session)
          (add-hook 'kill-buffer-hook #'agentd--forget-session nil t))
        (setf (agentd-session-buffer session) buffer)))
    (setq agentd--last-session session)))

(defun agentd--forget-session ()
  "Forget the session of the chat buffer being killed.
The session stays stored in the daemon."
  (when agentd--session
    (remhash (agentd-session-id agentd--session) agentd--sessions)
    (when (eq agentd--last-session agentd--session)
      (setq agentd--last-session nil))))

(defun agentd--display (session)
  "Show the chat buffer of SESSION."
  (display-buffer (agentd-session-buffer session)))

(defun agentd--current-session (&optional create)
  "The session to act on: this chat buffer's, else the last one used.
With CREATE, start one when there is none; otherwise signal a `user-error'."
  (let ((session (or agentd--session agentd--last-session)))
    (cond ((and session (buffer-live-p (agentd-session-buffer session)))
           (setq agentd--last-session session))
          (create (agentd-new-session (agentd--default-directory)))
          (t (user-error "No agentd session: start one with M-x agentd-new-session")))))

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
         (session (agentd--register (plist-get result :sessionId) cwd)))
    (setf (agentd-session-loaded session) t)
    (agentd--display session)
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
  (let ((known (gethash id agentd--sessions)))
    (if (and known (buffer-live-p (agentd-session-buffer known)))
        (progn (agentd--display known) (setq agentd--last-session known))
      (let ((session (agentd--register id cwd)))
        (jsonrpc-async-request
         (agentd--live-connection) :session/load
         (list :sessionId id :cwd cwd :mcpServers [])
         :success-fn (lambda (result) (agentd--loaded session result))
         :error-fn (lambda (error)
                     (agentd--in-chat session
                       (agentd-chat-insert-notice
                        (format "could not load the session: %s" (plist-get error :message))
                        'agentd-chat-error-face)))
         :timeout nil)
        (agentd--display session)
        session))))

(defun agentd--loaded (session result)
  "SESSION's history is replayed; RESULT is the `session/load' answer."
  (setf (agentd-session-loaded session) t)
  (when (equal (plist-get (plist-get (plist-get result :_meta) :agentd) :state) "running")
    (agentd--set-running session t)))


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
      (user-error "A turn is running: steer it (M-x agentd-steer) or queue a follow-up (M-x agentd-follow-up)"))
    (when (called-interactively-p 'any) (deactivate-mark))
    (agentd--in-chat session (agentd-chat-insert-user blocks))
    (agentd--display session)
    (setf (agentd-session-prompting session) t
          (agentd-session-own-turn session) nil)
    (agentd--set-running session t)
    (jsonrpc-async-request
     (agentd--live-connection) :session/prompt
     (list :sessionId (agentd-session-id session) :prompt (vconcat blocks))
     :success-fn (lambda (result) (agentd--prompt-answered session result nil))
     :error-fn (lambda (error) (agentd--prompt-answered session nil error))
     ;; A turn takes as long as it takes.
     :timeout nil)
    session))

(defun agentd--prompt-answered (session result error)
  "Our prompt in SESSION was answered with RESULT, or failed with ERROR."
  (let ((turn (agentd-session-own-turn session)))
    (setf (agentd-session-prompting session) nil
          (agentd-session-own-turn session) nil)
    (agentd--set-running session nil)
    (unless (and turn (member turn (agentd-session-ended-turns session)))
      (agentd--end-turn session turn
                        (agentd-chat-describe-stop (plist-get result :stopReason)
                                                   (plist-get result :_meta) error)
                        error))))

(defun agentd--queue (method session text label &rest params)
  "Send TEXT to SESSION with METHOD (steer or follow-up), shown with LABEL.
PARAMS are added to the request's params."
  (agentd--in-chat session (agentd-chat-insert-user (list (list :type "text" :text text)) label))
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
