;;; agent-shell-scenario.el --- docs/editors.md's agent-shell config, driven as a user would -*- lexical-binding: t; -*-

;; Run by agent-shell.check.ts in `emacs --batch -Q': loads the doc's config block
;; (AGENTD_DOC_CONFIG), starts it with the doc's command, then types prompts and
;; presses the keys a user would (RET, y on the permission button, C-c C-c), and
;; writes what the shell buffer showed and what went over ACP to AGENTD_SUMMARY.

;;; Code:

(require 'cl-lib)
(require 'json)
(require 'seq)

(dolist (dir '("shell-maker" "acp.el" "agent-shell"))
  (add-to-list 'load-path (expand-file-name dir (getenv "AGENTD_EDITOR_PLUGINS"))))

;; acp.el's own traffic log (a user option): the scenario reads it to show the wire.
(setq acp-logging-enabled t)

(load (getenv "AGENTD_DOC_CONFIG") nil t)

(defvar scenario-wire nil "ACP messages, newest first: (DIRECTION KIND METHOD DETAIL).")
(defvar scenario-events nil "agent-shell events, newest first.")
(defvar scenario-steps nil "What each step saw, newest first: (NAME . ALIST).")
(defvar scenario-shell nil "The agent-shell buffer.")

(defun scenario--detail (object)
  "The part of OBJECT worth asserting on: a cwd, a stop reason, an outcome."
  (let ((params (alist-get 'params object))
        (result (alist-get 'result object)))
    (or (alist-get 'cwd params)
        (alist-get 'stopReason result)
        (let ((outcome (alist-get 'outcome result)))
          (and outcome (format "%s %s" (alist-get 'outcome outcome) (or (alist-get 'optionId outcome) ""))))
        (and (alist-get 'sessionId result) "session")
        (let ((update (alist-get 'update params)))
          (and update (alist-get 'sessionUpdate update))))))

(advice-add 'acp-traffic-log-traffic :before
            (lambda (&rest args)
              (let ((object (alist-get :object (plist-get args :message))))
                (push (list (symbol-name (plist-get args :direction))
                            (symbol-name (plist-get args :kind))
                            (alist-get 'method object)
                            (scenario--detail object))
                      scenario-wire))))

(defun scenario-wait (predicate what &optional seconds)
  "Let processes and timers run until PREDICATE holds; fail naming WHAT after SECONDS."
  (let ((deadline (+ (float-time) (or seconds 30))))
    (while (not (funcall predicate))
      (when (> (float-time) deadline)
        (error "Timed out waiting for %s; buffer:\n%s" what (scenario-text)))
      (accept-process-output nil 0.05))))

(defun scenario-text ()
  "The shell buffer as a user sees it: its text less what is invisible (markup, folded bodies)."
  (if (buffer-live-p scenario-shell)
      (with-current-buffer scenario-shell
        (let ((pos (point-min)) (parts nil))
          (while (< pos (point-max))
            (let ((next (next-single-char-property-change pos 'invisible)))
              (unless (invisible-p pos)
                (push (buffer-substring-no-properties pos next) parts))
              (setq pos next)))
          (apply #'concat (nreverse parts))))
    ""))

(defun scenario-event-count (name)
  "How many NAME events agent-shell has emitted."
  (seq-count (lambda (event) (eq (alist-get :event event) name)) scenario-events))

(defvar scenario-pressed nil "The named commands keys ran, newest first: (KEYS . COMMAND).")

(defun scenario-press (keys)
  "Run the command KEYS is bound to at point in the shell buffer, as typing KEYS would."
  (with-current-buffer scenario-shell
    (let ((command (key-binding (kbd keys) t)))
      (unless (commandp command) (error "%s is not bound at point: %S" keys command))
      (push (cons keys (if (symbolp command) (symbol-name command) "a button's lambda")) scenario-pressed)
      (call-interactively command))))

(defun scenario-type (text)
  "Type TEXT at the prompt, where a user's cursor sits (batch has no window point)."
  (with-current-buffer scenario-shell
    (goto-char (process-mark (get-buffer-process scenario-shell)))
    (insert text)))

(defun scenario-prompt (text)
  "Type TEXT at the prompt and press RET; wait for the turn to end."
  (let ((turns (scenario-event-count 'turn-complete)))
    (scenario-type text)
    (scenario-press "RET")
    (scenario-wait (lambda () (> (scenario-event-count 'turn-complete) turns)) (format "the turn for %S" text))))

(defun scenario-step (name &rest alist)
  "Record step NAME with ALIST and the buffer as it is now."
  (push (cons name (append alist (list (cons 'text (scenario-text))))) scenario-steps))

(defun scenario-write-summary ()
  "Write what the scenario saw to AGENTD_SUMMARY."
  (with-temp-file (getenv "AGENTD_SUMMARY")
    (insert (json-encode
             `((steps . ,(reverse scenario-steps))
               (wire . ,(vconcat (mapcar #'vconcat (reverse scenario-wire))))
               (pressed . ,(vconcat (mapcar (lambda (p) (vector (car p) (cdr p))) (reverse scenario-pressed))))
               (events . ,(vconcat (mapcar (lambda (e) (symbol-name (alist-get :event e)))
                                           (reverse scenario-events)))))))))

(defun scenario-run ()
  "The user's session: start, prompt, allow a write, interrupt, prompt again."
  ;; 1. M-x my/agentd, as the doc says; the shell bootstraps a session on its own.
  (call-interactively #'my/agentd)
  (setq scenario-shell (seq-first (agent-shell-buffers)))
  (unless scenario-shell (error "my/agentd made no agent-shell buffer"))
  (agent-shell-subscribe-to :shell-buffer scenario-shell
                            :on-event (lambda (event) (push event scenario-events)))
  (scenario-wait (lambda () (> (scenario-event-count 'prompt-ready) 0)) "the agentd> prompt")
  (scenario-step "start" (cons 'buffer (buffer-name scenario-shell)))

  ;; 2. A prompt; the reply streams in several chunks.
  (scenario-prompt "Say hello")
  (scenario-step "hello")

  ;; 3. The model writes a file: agent-shell shows a permission dialog; press y on it.
  (let ((turns (scenario-event-count 'turn-complete)))
    (scenario-type "Write hello.txt")
    (scenario-press "RET")
    (scenario-wait (lambda () (> (scenario-event-count 'permission-request) 0)) "the permission dialog")
    (let ((dialog (scenario-text)))
      ;; agent-shell has put point on the dialog's button row: y there is "Allow once".
      (scenario-press "y")
      (scenario-wait (lambda () (> (scenario-event-count 'turn-complete) turns)) "the write turn")
      ;; The tool call folds under a heading once done; its body is what expanding shows.
      (scenario-step "write" (cons 'dialog dialog)
                     (cons 'body (with-current-buffer scenario-shell
                                   (buffer-substring-no-properties (point-min) (point-max)))))))

  ;; 4. A reply that stalls: C-c C-c (agent-shell-interrupt) asks "Interrupt?"; answer y.
  (let ((turns (scenario-event-count 'turn-complete))
        (asked nil))
    (scenario-type "Start a long job")
    (scenario-press "RET")
    (scenario-wait (lambda () (string-match-p "Working on it" (scenario-text))) "the stalled reply")
    (cl-letf (((symbol-function 'y-or-n-p) (lambda (prompt) (push prompt asked) t)))
      (scenario-press "C-c C-c"))
    (scenario-wait (lambda () (> (scenario-event-count 'turn-complete) turns)) "the interrupted turn")
    (scenario-step "cancel" (cons 'asked (vconcat asked))))

  ;; 5. The shell still works after the interrupt.
  (scenario-prompt "Are you still there?")
  (scenario-step "after-cancel"))

(defun scenario-bridges ()
  "The live `agentd acp' processes this Emacs started."
  (seq-filter (lambda (p) (and (process-live-p p) (member "acp" (process-command p))
                               (string-match-p "agentd" (car (process-command p)))))
              (process-list)))

(condition-case err
    (progn
      (scenario-run)
      (let ((bridges (length (scenario-bridges)))
            (asked nil))
        ;; Leave as a user closing the shell would: C-x k, answering yes to whatever it asks.
        (cl-letf (((symbol-function 'y-or-n-p) (lambda (prompt) (push prompt asked) t))
                  ((symbol-function 'yes-or-no-p) (lambda (prompt) (push prompt asked) t)))
          (with-current-buffer scenario-shell
            (call-interactively #'kill-current-buffer)))
        (scenario-wait (lambda () (null (scenario-bridges))) "the bridge to stop" 10)
        (scenario-step "exit" (cons 'asked (vconcat asked)) (cons 'killed (not (buffer-live-p scenario-shell)))
                       (cons 'bridges-before bridges) (cons 'bridges-after (length (scenario-bridges)))))
      (scenario-write-summary)
      (kill-emacs 0))
  (error
   (scenario-step "error" (cons 'message (error-message-string err)))
   (scenario-write-summary)
   (message "scenario failed: %s" (error-message-string err))
   (kill-emacs 1)))

;;; agent-shell-scenario.el ends here
