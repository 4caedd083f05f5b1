;;; agentd-chat-test.el --- Unit tests of the agentd chat buffer  -*- lexical-binding: t; -*-

;; SPDX-License-Identifier: MIT

;;; Commentary:

;; The parts that need no daemon: rendering session updates into a chat
;; buffer, how turn ends read, the region as a resource block, the permission
;; answer, and which of a prompt's answer and a turn_end event shows a turn's
;; end.  Run: emacs --batch -Q -L clients/emacs -l
;; clients/emacs/test/agentd-chat-test.el -f ert-run-tests-batch-and-exit

;;; Code:

(require 'ert)
(require 'agentd)

(defmacro agentd-chat-test--with-buffer (&rest body)
  "Run BODY in a fresh `agentd-chat-mode' buffer."
  (declare (indent 0) (debug t))
  `(with-temp-buffer
     (agentd-chat-mode)
     ,@body))

(defun agentd-chat-test--chunk (kind text &optional message-id)
  "A session update of KIND (e.g. \"agent_message_chunk\") carrying TEXT."
  (list :sessionUpdate kind :messageId message-id :content (list :type "text" :text text)))

(ert-deftest agentd-chat-streams-chunks-of-one-message-into-one-block ()
  (agentd-chat-test--with-buffer
    (dolist (piece '("The answer " "is " "42."))
      (agentd-chat-handle-update (agentd-chat-test--chunk "agent_message_chunk" piece "m1")))
    (should (equal (buffer-string) "The answer is 42."))
    (agentd-chat-handle-update (agentd-chat-test--chunk "agent_message_chunk" "Next message." "m2"))
    (should (equal (buffer-string) "The answer is 42.\n\nNext message."))))

(ert-deftest agentd-chat-shows-user-messages-quoted ()
  (agentd-chat-test--with-buffer
    (agentd-chat-insert-user (list (list :type "text" :text "Fix it\nplease")
                                   (list :type "resource"
                                         :resource (list :uri "file:///w/src/a.ts#L2:3"
                                                         :text "x"))))
    (agentd-chat-handle-update (agentd-chat-test--chunk "agent_message_chunk" "Done." "m1"))
    (agentd-chat-handle-update (agentd-chat-test--chunk "user_message_chunk" "From\nelsewhere" "u2"))
    (should (equal (buffer-string)
                   (concat "> Fix it\n> please\n> [context: a.ts#L2:3]\n\n"
                           "Done.\n\n"
                           "> From\n> elsewhere")))))

(ert-deftest agentd-chat-redraws-a-tool-call-in-place ()
  (agentd-chat-test--with-buffer
    (agentd-chat-handle-update (agentd-chat-test--chunk "agent_message_chunk" "Writing it." "m1"))
    (agentd-chat-handle-update (list :sessionUpdate "tool_call" :toolCallId "c1"
                                     :title "Write hello.txt" :kind "edit" :status "pending"))
    (agentd-chat-handle-update (list :sessionUpdate "tool_call" :toolCallId "c2"
                                     :title "Run ls" :kind "execute" :status "pending"))
    (agentd-chat-handle-update (list :sessionUpdate "tool_call_update" :toolCallId "c1"
                                     :status "in_progress"))
    (agentd-chat-handle-update (list :sessionUpdate "tool_call_update" :toolCallId "c1"
                                     :status "completed" :title nil))
    (agentd-chat-handle-update
     (list :sessionUpdate "tool_call_update" :toolCallId "c2" :status "failed"
           :content (vector (list :type "content"
                                  :content (list :type "text" :text "ls: no such file\n")))))
    (agentd-chat-handle-update (agentd-chat-test--chunk "agent_message_chunk" "All done." "m2"))
    (should (equal (buffer-string)
                   (concat "Writing it.\n\n"
                           "[tool] Write hello.txt (completed)\n"
                           "[tool] Run ls (failed)\n"
                           "    ls: no such file\n\n"
                           "All done.")))
    (goto-char (point-min))
    (search-forward "(completed)")
    (should (eq (get-text-property (1- (point)) 'face) 'success))))

(ert-deftest agentd-chat-keeps-tool-calls-apart-from-later-text ()
  (agentd-chat-test--with-buffer
    (agentd-chat-handle-update (list :sessionUpdate "tool_call" :toolCallId "c1" :title "Read a"))
    (agentd-chat-handle-update (agentd-chat-test--chunk "agent_message_chunk" "Text" "m1"))
    (agentd-chat-handle-update (list :sessionUpdate "tool_call_update" :toolCallId "c1"
                                     :status "completed"))
    (should (equal (buffer-string) "[tool] Read a (completed)\n\nText"))))

(ert-deftest agentd-chat-puts-title-and-usage-in-the-header-line ()
  (agentd-chat-test--with-buffer
    (agentd-chat-handle-update '(:sessionUpdate "session_info_update" :title "Fix the flaky test"))
    (agentd-chat-handle-update '(:sessionUpdate "usage_update" :used 1200 :size 128000
                                                :cost (:amount 0.0123 :currency "USD")))
    (should (equal (agentd-chat--header-line)
                   " Fix the flaky test  context 1200/128000 tokens  $0.0123"))
    (should (equal (buffer-string) ""))))

(ert-deftest agentd-chat-describes-every-way-a-turn-ends ()
  (should (equal (agentd-chat-describe-stop "end_turn") "done"))
  (should (equal (agentd-chat-describe-stop "cancelled") "cancelled"))
  (should (equal (agentd-chat-describe-stop "max_turn_requests") "out of turns or budget"))
  (should (equal (agentd-chat-describe-stop "max_tokens") "stopped at the output token limit"))
  (should (equal (agentd-chat-describe-stop "refusal") "refused by the model"))
  (should (equal (agentd-chat-describe-stop
                  "end_turn" '(:agentd (:outcome "budget_exceeded" :message "$1.02 of $1.00 spent")))
                 "out of budget: $1.02 of $1.00 spent"))
  (should (equal (agentd-chat-describe-stop nil nil '(:code -32014 :message "local: 400 bad model"))
                 "failed: local: 400 bad model"))
  (should (equal (agentd-chat-describe-stop "end_turn" nil "stream broke") "failed: stream broke")))

(ert-deftest agentd-chat-closes-a-turn-with-a-line ()
  (agentd-chat-test--with-buffer
    (agentd-chat-handle-update (agentd-chat-test--chunk "agent_message_chunk" "Hi." "m1"))
    (agentd-chat-insert-turn-end "done")
    (agentd-chat-handle-update (agentd-chat-test--chunk "agent_message_chunk" "Again." "m1"))
    (should (equal (buffer-string) "Hi.\n\n--- done\n\nAgain."))))

(ert-deftest agentd-region-block-names-the-file-and-lines ()
  (let ((file (make-temp-file "agentd test " nil ".txt" "one\ntwo\nthree\nfour\n")))
    (unwind-protect
        (with-current-buffer (find-file-noselect file)
          (let* ((beg (progn (goto-char (point-min)) (forward-line 1) (point)))
                 (end (progn (forward-line 2) (point)))
                 (block (agentd--region-block beg end))
                 (resource (plist-get block :resource)))
            (should (equal (plist-get block :type) "resource"))
            (should (equal (plist-get resource :text) "two\nthree\n"))
            (should (equal (plist-get resource :uri)
                           (concat "file://" (url-hexify-string file url-path-allowed-chars)
                                   "#L2:3")))
            (should (string-match-p "agentd%20test" (plist-get resource :uri)))
            ;; Ending inside a line counts that line.
            (should (string-suffix-p "#L2:4" (plist-get (plist-get (agentd--region-block beg (1+ end))
                                                                   :resource)
                                                        :uri))))
          (kill-buffer))
      (delete-file file))))

(ert-deftest agentd-permission-completing-read-returns-the-option-id ()
  (let ((options (list (list :optionId "allow_once" :name "Allow once" :kind "allow_once")
                       (list :optionId "reject_once" :name "Reject" :kind "reject_once")))
        (asked nil))
    (cl-letf (((symbol-function 'completing-read)
               (lambda (prompt collection &rest _)
                 (setq asked (list prompt (mapcar #'car collection)))
                 "Reject")))
      (should (equal (agentd-permission-completing-read '(:title "Write a.txt") options)
                     "reject_once"))
      (should (equal asked '("agentd: Write a.txt? " ("Allow once" "Reject")))))
    (cl-letf (((symbol-function 'completing-read) (lambda (&rest _) "")))
      (should (null (agentd-permission-completing-read '(:title "Write a.txt") options))))))

(ert-deftest agentd-permission-answer-is-selected-or-cancelled ()
  (let ((params (list :sessionId "nobody" :toolCall '(:title "Write a.txt")
                      :options (vector (list :optionId "allow_once" :name "Allow once")))))
    (let ((agentd-permission-function (lambda (_call _options) "allow_once")))
      (should (equal (agentd--ask-permission params)
                     '(:outcome (:outcome "selected" :optionId "allow_once")))))
    (let ((agentd-permission-function (lambda (_call _options) nil)))
      (should (equal (agentd--ask-permission params) '(:outcome (:outcome "cancelled")))))
    (let ((agentd-permission-function (lambda (_call _options) (signal 'quit nil))))
      (should (equal (agentd--ask-permission params) '(:outcome (:outcome "cancelled")))))
    (let ((agentd-permission-function (lambda (_call _options) "not-offered")))
      (should (equal (agentd--ask-permission params) '(:outcome (:outcome "cancelled")))))))

(defmacro agentd-chat-test--with-session (var &rest body)
  "Run BODY with VAR bound to a session whose chat buffer is fresh."
  (declare (indent 1) (debug t))
  `(let* ((agentd-session--table (make-hash-table :test #'equal))
          (agentd-session--last nil)
          (,var (agentd-session-register "ses_test" temporary-file-directory)))
     (unwind-protect (progn ,@body)
       (kill-buffer (agentd-session-buffer ,var)))))

(ert-deftest agentd-own-turn-ends-once-whichever-comes-first ()
  ;; The turn_end event first, then the prompt's answer.
  (agentd-chat-test--with-session session
    (setf (agentd-session-prompting session) t)
    (agentd-session-handle-event session '(:type "turn_start" :turnId "t1"))
    (should (agentd-session-running session))
    (agentd-session-handle-event session '(:type "turn_end" :turnId "t1" :stopReason "end_turn"))
    (agentd-session-prompt-answered session
                                    '(:stopReason "end_turn"
                                                  :_meta (:agentd (:outcome "budget_exceeded" :message "spent")))
                                    nil)
    (with-current-buffer (agentd-session-buffer session)
      (should (equal (buffer-string) "--- out of budget: spent\n")))
    (should-not (agentd-session-running session)))
  ;; The answer first, then the event.
  (agentd-chat-test--with-session session
    (setf (agentd-session-prompting session) t)
    (agentd-session-handle-event session '(:type "turn_start" :turnId "t1"))
    (agentd-session-prompt-answered session nil '(:code -32014 :message "local: 500"))
    (agentd-session-handle-event session '(:type "turn_end" :turnId "t1" :stopReason "end_turn"
                                                 :error "local: 500"))
    (with-current-buffer (agentd-session-buffer session)
      (should (equal (buffer-string) "--- failed: local: 500\n")))
    (should (equal (agentd-session-last-stop session) "failed: local: 500"))))

(ert-deftest agentd-someone-elses-turn-ends-from-the-event ()
  (agentd-chat-test--with-session session
    (agentd-session-handle-event session '(:type "turn_start" :turnId "t9"))
    (agentd--handle-notification
     nil 'session/update
     (list :sessionId "ses_test"
           :update (agentd-chat-test--chunk "user_message_chunk" "Their question" "u1")))
    (agentd--handle-notification
     nil 'session/update
     (list :sessionId "ses_test"
           :update (agentd-chat-test--chunk "agent_message_chunk" "Their answer." "m1")))
    (agentd-session-handle-event session '(:type "turn_end" :turnId "t9" :stopReason "cancelled"))
    (agentd-session-handle-event session '(:type "turn_end" :turnId "t9" :stopReason "cancelled"))
    (with-current-buffer (agentd-session-buffer session)
      (should (equal (buffer-string) "> Their question\n\nTheir answer.\n\n--- cancelled\n")))))

(ert-deftest agentd-diff-shows-a-proposed-change-relative-to-the-session ()
  (let ((call (list :content (vector (list :type "diff" :path "/ws/src/a.el"
                                           :oldText "one\ntwo\n" :newText "one\nTWO\n")))))
    (should (equal (agentd-diff-proposed-change call "/ws")
                   '("- proposed change to src/a.el:" "  @@ -1,2 +1,2 @@" "   one" "  -two" "  +TWO")))
    (should (equal (car (agentd-diff-proposed-change call "/elsewhere"))
                   "- proposed change to /ws/src/a.el:"))))

(ert-deftest agentd-diff-cuts-a-long-new-file-and-skips-other-content ()
  (let* ((text (mapconcat (lambda (i) (format "line %d\n" i)) (number-sequence 1 100) ""))
         (lines (agentd-diff-proposed-change
                 (list :content (vector (list :type "content" :content (list :type "text" :text "hi"))
                                        (list :type "diff" :path "/ws/long.txt" :oldText nil :newText text)))
                 "/ws")))
    (should (equal (seq-take lines 3) '("- proposed new file long.txt:" "  @@ -0,0 +1,100 @@" "  +line 1")))
    (should (equal (car (last lines 2)) "  +line 39"))
    (should (equal (car (last lines)) "  ... 61 more diff lines"))
    (should (null (agentd-diff-proposed-change (list :title "Run ls") "/ws")))))

(ert-deftest agentd-diff-says-so-when-the-diff-program-cannot-run ()
  (let ((agentd-diff-program "agentd-no-such-diff-program"))
    (let ((lines (agentd-diff-proposed-change
                  (list :content (vector (list :type "diff" :path "/ws/a.txt" :oldText "a\n" :newText "b\n")))
                  "/ws")))
      (should (equal (car lines) "- proposed change to a.txt:"))
      (should (string-match-p "\\`  (cannot show it: .*agentd-no-such-diff-program.*; set `agentd-diff-program')\\'"
                              (cadr lines))))))

(provide 'agentd-chat-test)
;;; agentd-chat-test.el ends here
