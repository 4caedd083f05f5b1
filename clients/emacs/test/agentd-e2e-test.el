;;; agentd-e2e-test.el --- agentd.el against a real daemon  -*- lexical-binding: t; -*-

;; SPDX-License-Identifier: MIT

;;; Commentary:

;; Run by test/clients/emacs-client.test.ts, which starts a socket daemon whose
;; model is a loopback replay server, queues the model's responses in the order
;; these tests make their requests, and reads the summary they write.  ERT runs
;; tests in name order, so the numbers in the names are that order.
;;
;; Environment: AGENTD_E2E_NODE and AGENTD_E2E_CLI (agentd-command is
;; `NODE CLI serve --stdio', which bridges to the socket daemon sharing
;; AGENTD_HOME), AGENTD_E2E_WORKSPACE (where sessions work) and
;; AGENTD_E2E_SUMMARY (the JSON file to write).  The join tests also read
;; AGENTD_E2E_SESSION_FILE (where the host writes its session id) and
;; AGENTD_E2E_JOIN_SESSION (the session the guest joins).

;;; Code:

(require 'ert)
(require 'agentd)

(setq agentd-command (list (getenv "AGENTD_E2E_NODE") (getenv "AGENTD_E2E_CLI")
                           "serve" "--stdio"))

(defvar agentd-e2e--summary (make-hash-table :test #'equal)
  "What the tests saw, written to AGENTD_E2E_SUMMARY as JSON after each record.")

(defun agentd-e2e--record (key value)
  "Record VALUE under KEY in the summary and write the summary out."
  (puthash key value agentd-e2e--summary)
  (let ((coding-system-for-write 'utf-8-unix))
    (with-temp-file (getenv "AGENTD_E2E_SUMMARY")
      (insert (json-serialize agentd-e2e--summary :null-object :null :false-object :false)))))

(defun agentd-e2e--object (&rest pairs)
  "A hash table (a JSON object) of PAIRS: key value key value..."
  (let ((table (make-hash-table :test #'equal)))
    (while pairs
      (puthash (pop pairs) (let ((v (pop pairs))) (if (null v) :null v)) table))
    table))

(defun agentd-e2e--workspace ()
  "The directory sessions work in."
  (directory-file-name (getenv "AGENTD_E2E_WORKSPACE")))

(defun agentd-e2e--text (session)
  "The text of SESSION's chat buffer."
  (with-current-buffer (agentd-session-buffer session)
    (buffer-substring-no-properties (point-min) (point-max))))

(defun agentd-e2e--contains (needle haystack)
  "Non-nil if NEEDLE occurs in HAYSTACK (`string-search' is Emacs 28+)."
  (string-match-p (regexp-quote needle) haystack))

(defun agentd-e2e--wait (what predicate &optional seconds)
  "Let the connection work until PREDICATE holds; fail naming WHAT after SECONDS."
  (let ((deadline (+ (float-time) (or seconds 20))))
    (while (and (not (funcall predicate)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (unless (funcall predicate)
      (ert-fail (format "timed out waiting for %s; stderr:\n%s" what
                        (if (get-buffer "*agentd stderr*")
                            (with-current-buffer "*agentd stderr*" (buffer-string))
                          ""))))))

(defun agentd-e2e--wait-for-text (session text)
  "Wait until SESSION's chat buffer contains TEXT."
  (agentd-e2e--wait (format "%S in the chat buffer" text)
                    (lambda () (agentd-e2e--contains text (agentd-e2e--text session)))))

(defun agentd-e2e--wait-for-turn-end (session)
  "Wait until SESSION's turn has ended; return how it ended."
  (agentd-e2e--wait "the turn to end" (lambda () (agentd-session-last-stop session)) 30)
  (agentd-session-last-stop session))

(defun agentd-e2e--updates-recorder ()
  "A list cell whose car collects the update kinds seen, and its hook function."
  (let ((seen (list nil)))
    (cons seen (lambda (_session update)
                 (push (plist-get update :sessionUpdate) (car seen))))))

(ert-deftest agentd-e2e-1-prompt-streams-text-and-a-tool-call-that-asks-permission ()
  (let* ((asked nil)
         (agentd-permission-function
          (lambda (tool-call options)
            (push (list (plist-get tool-call :title)
                        (vconcat (mapcar (lambda (o) (plist-get o :optionId)) options)))
                  asked)
            "allow_once"))
         (recorder (agentd-e2e--updates-recorder))
         (agentd-update-functions (list (cdr recorder)))
         (session (agentd-new-session (agentd-e2e--workspace))))
    (with-temp-buffer
      (agentd-prompt "Create hello.txt — with a ✓, please"))
    (should (equal (agentd-e2e--wait-for-turn-end session) "done"))
    (let ((kinds (reverse (car (car recorder))))
          (text (agentd-e2e--text session)))
      (should (equal (length asked) 1))
      (should (agentd-e2e--contains "[tool] Write hello.txt (completed)" text))
      (agentd-e2e--record
       "prompt"
       (agentd-e2e--object
        "sessionId" (agentd-session-id session)
        "stop" (agentd-session-last-stop session)
        "title" (buffer-local-value 'agentd-chat-title (agentd-session-buffer session))
        "permissionTitle" (car (car asked))
        "permissionOptions" (cadr (car asked))
        "agentChunks" (cl-count "agent_message_chunk" kinds :test #'equal)
        "toolUpdates" (vconcat (cl-remove-if-not (lambda (k) (string-prefix-p "tool_call" k)) kinds))
        "file" (with-temp-buffer
                 (insert-file-contents (expand-file-name "hello.txt" (agentd-e2e--workspace)))
                 (buffer-string))
        "chat" text)))))

(ert-deftest agentd-e2e-2-region-goes-as-a-resource-block ()
  (let* ((session (agentd-new-session (agentd-e2e--workspace)))
         (file (expand-file-name "notes.txt" (agentd-e2e--workspace))))
    (with-temp-file file (insert "line one\nline two\nline three\nline four\n"))
    (with-current-buffer (find-file-noselect file)
      (goto-char (point-min))
      (forward-line 1)
      (let ((beg (point)))
        (forward-line 2)
        (agentd-prompt "Explain these lines" beg (point))))
    (should (equal (agentd-e2e--wait-for-turn-end session) "done"))
    (agentd-e2e--record "region" (agentd-e2e--object
                                  "uri" (agentd--file-uri file)
                                  "chat" (agentd-e2e--text session)))))

(ert-deftest agentd-e2e-3-steer-and-follow-up-a-turn-held-in-flight ()
  (let ((session (agentd-new-session (agentd-e2e--workspace))))
    (agentd-prompt "Start working")
    (agentd-e2e--wait-for-text session "Working on it")
    (should (agentd-session-running session))
    (agentd-follow-up "Then say goodbye.")
    (agentd-steer "Stop and say steered." t)
    (should (equal (agentd-e2e--wait-for-turn-end session) "done"))
    (agentd-e2e--record "steer" (agentd-e2e--object "chat" (agentd-e2e--text session)))))

(ert-deftest agentd-e2e-4-abort-a-turn-held-in-flight ()
  (let ((session (agentd-new-session (agentd-e2e--workspace))))
    (agentd-prompt "Start a long job")
    (agentd-e2e--wait-for-text session "Still working")
    (agentd-abort)
    (should (equal (agentd-e2e--wait-for-turn-end session) "cancelled"))
    (should-not (agentd-session-running session))
    (agentd-e2e--record "abort" (agentd-e2e--object "chat" (agentd-e2e--text session)))))

(ert-deftest agentd-e2e-5-failed-turn-shows-the-error ()
  (let ((session (agentd-new-session (agentd-e2e--workspace))))
    (agentd-prompt "This one fails")
    (should (string-prefix-p "failed: " (agentd-e2e--wait-for-turn-end session)))
    (agentd-e2e--record "failure" (agentd-e2e--object
                                   "stop" (agentd-session-last-stop session)
                                   "chat" (agentd-e2e--text session)))))

(ert-deftest agentd-e2e-6-sessions-lists-and-loads-a-stored-session ()
  (let* ((first (gethash "prompt" agentd-e2e--summary))
         (id (gethash "sessionId" first))
         (old (agentd-session-get id)))
    ;; Loading needs a session this Emacs does not show yet.
    (kill-buffer (agentd-session-buffer old))
    (let* ((offered nil)
           (session
            (cl-letf (((symbol-function 'completing-read)
                       (lambda (_prompt table &rest _)
                         (setq offered (all-completions "" table))
                         (cl-find id offered :test (lambda (id label) (string-suffix-p id label))))))
              (agentd-sessions))))
      (agentd-e2e--wait "session/load to answer" (lambda () (agentd-session-loaded session)))
      (should (equal (agentd-session-id session) id))
      (agentd-e2e--record "sessions" (agentd-e2e--object
                                      "offered" (length offered)
                                      "chosen" (cl-find id offered
                                                        :test (lambda (id label)
                                                                (string-suffix-p id label)))
                                      "chat" (agentd-e2e--text session))))))

(ert-deftest agentd-e2e-7-shutdown-ends-the-connection-cleanly ()
  (let ((proc (agentd-rpc-process (agentd--live-connection))))
    (agentd-shutdown)
    (should-not (process-live-p proc))
    (should (null agentd--connection))
    (agentd-e2e--record "exit" (agentd-e2e--object
                                "status" (symbol-name (process-status proc))
                                "code" (process-exit-status proc)))))

;;; A daemon whose config sets maxTurns 1: run with the selector "agentd-limit-".

(ert-deftest agentd-limit-turn-out-of-turns ()
  (let ((session (agentd-new-session (agentd-e2e--workspace))))
    (agentd-prompt "List the files, then tell me about them")
    (agentd-e2e--wait-for-turn-end session)
    (agentd-e2e--record "limit" (agentd-e2e--object
                                 "stop" (agentd-session-last-stop session)
                                 "chat" (agentd-e2e--text session)))
    (agentd-shutdown)))

;;; A second client joins a running session: run with the selectors
;;; "agentd-join-host" and "agentd-join-guest" in two Emacs processes.

(ert-deftest agentd-join-host ()
  (let ((session (agentd-new-session (agentd-e2e--workspace))))
    (agentd-prompt "Tell me in two parts")
    (agentd-e2e--wait-for-text session "More of the first part.")
    (with-temp-file (getenv "AGENTD_E2E_SESSION_FILE") (insert (agentd-session-id session)))
    (agentd-e2e--wait-for-turn-end session)
    (agentd-e2e--record "host" (agentd-e2e--object
                                "stop" (agentd-session-last-stop session)
                                "chat" (agentd-e2e--text session)))
    (agentd-shutdown)))

(ert-deftest agentd-join-guest ()
  (let ((session (agentd-load-session (getenv "AGENTD_E2E_JOIN_SESSION")
                                      (agentd-e2e--workspace))))
    (agentd-e2e--wait "session/load to answer" (lambda () (agentd-session-loaded session)))
    (agentd-e2e--record "loaded" (agentd-e2e--object
                                  "running" (if (agentd-session-running session) t :false)
                                  "chat" (agentd-e2e--text session)))
    (agentd-steer "Go on." t)
    (agentd-e2e--wait-for-turn-end session)
    (agentd-e2e--record "guest" (agentd-e2e--object
                                 "stop" (agentd-session-last-stop session)
                                 "chat" (agentd-e2e--text session)))
    (agentd-shutdown)))

(provide 'agentd-e2e-test)
;;; agentd-e2e-test.el ends here
