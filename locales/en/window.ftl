# Ask First: the words of the window, in English (the reference for every other language).
#
# This is a Fluent file (https://projectfluent.org/fluent/guide/). Each line `key = Sentence`
# is one text of the window; the code asks for it by its key, t('key'). To add a text:
#   1. add `your-key = The sentence.` here, in the section of its screen;
#   2. add the same key to locales/zh-CN/window.ftl and locales/pt-BR/window.ftl (the test
#      ui/src/lib/i18n/catalogue.test.ts fails while a language lacks it, or while no code uses it);
#   3. use it in the component: {t('your-key')}, or t('your-key', { count: n }) with parameters.
# Parameters are written { $name }. Plurals are chosen by the language's own rules:
#   files = { $count ->
#       [one] { $count } file
#      *[other] { $count } files
#   }
# Never build a sentence from pieces in code: give the whole sentence here, with parameters.
# Text sent to the model stays in English and is not here; what the model writes is shown as
# written. The core's sentences (cards, errors, notifications, tray) are in locales/<tag>/app.ftl.

## The top of the window

app-tagline = Your assistant asks before it changes anything.
app-conversations = Conversations
app-settings = Settings
app-refuse-all = Don't ask me now: refuse whatever needs my OK
app-refuse-all-tip = Until you untick this, the agent may only do what needs no OK.

## Quit

quit = Quit
quit-failed = Ask First could not close its window. Try the tray's Quit, or log out.
quit-confirm = Quit Ask First now? Nothing waiting for your OK is done; the task stops here and goes on where it stopped the next time you start Ask First (it asks you again then).
quit-keep-open = Keep it open
quit-close-kept = This desktop has no tray icons, so closing the window does not close Ask First: it was minimised and keeps running, so it can still ask you before anything risky. To close it for good, press Quit.
quit-ok = OK

## Banners at the top of the cards

banner-needs-ok = Ask First needs your OK ({ $count } waiting):
banner-settings-mistake = Your settings file has a mistake
banner-settings-mistake-body = Ask First cannot use it until it is fixed or deleted: what you set there (who answers, MCP servers) is not in use, a task that needs it stops with this message, and Settings will not save over the file. This notice goes once the file can be read.
banner-cannot-save = Ask First cannot save right now
banner-cannot-save-body = Its history cannot be written, so to be safe it refuses every action that needs your OK until this is fixed. Free up some space on the disk, or make sure Ask First may write to its data folder; it notices by itself when saving works again.

## The task box and the run's status

status-ready = Ready
status-waiting = Waiting for your OK
status-working = Working…
status-retrying-busy = The AI service is busy: trying again in { $seconds } s (try { $next } of { $tries })
status-retrying-service_trouble = The AI service had a problem: trying again in { $seconds } s (try { $next } of { $tries })
status-retrying-unreachable = The AI service cannot be reached: trying again in { $seconds } s (try { $next } of { $tries })
status-done = Done
status-failed = Stopped because of a problem
status-stopped = Stopped
status-show-waiting = Show the first request waiting for your OK
composer-stop = Stop
composer-placeholder = What should the agent do? (Enter starts it; Shift+Enter for a new line)
composer-label = Task for the agent (Enter starts it, Shift+Enter adds a new line)
composer-start = Start

## The approval cards

approvals-heading = Waiting for your OK
card-eyebrow = The agent wants to
card-resumed = Asked again: Ask First was closed while this waited for your answer. Nothing of it has been done.
risk-low = Low risk
risk-medium = Medium risk
risk-high = High risk
card-effects = What this will do
card-change = What will change (green is added, red is removed)
card-exact-details = Exact details the agent sent
card-tool-name = The tool:
card-sending = Sending your answer…
card-ended = Already ended
# $time is minutes:seconds, e.g. 1:05.
card-countdown = Waiting for you · denied automatically in { $time }
card-time-up = Time is up · not run
card-countdown-tip = If you do not answer, the action will not run.
card-deny = Deny
# Allows this exact action again, without asking, until the conversation ends; the line below
# the buttons says what it covers.
card-allow-conversation = Allow in this conversation
# Followed by what the button allows, in the core's words.
alike-heading = { $tool ->
    [move_path] { $count } moves of this task wait for your OK.
    [write_file] { $count } files to write for this task wait for your OK.
   *[other] { $count } file changes of this task wait for your OK.
}
alike-review = Answer these { $count } together…
alike-approve = Approve these { $count }
alike-deny = Deny these { $count }
alike-cancel = Answer one by one
card-allow-scope = What “Allow in this conversation” covers
card-approve = Approve once
card-note-label = What should the agent do instead? ({ $count } of { $max } characters)
card-deny-with-note = Deny and tell the agent
card-add-note = Deny with a note for the agent…
card-change-call = Change…
card-edit-title = Change this action before it runs
card-edit-explain = Nothing runs when you save: the changed action gets its own card (or is refused by your rules), and you answer it there.
card-edit-field-path = File name
card-edit-field-content = Text of the file
card-edit-field-new_text = New text
card-edit-field-to = Move to
card-edit-field-command = Command line
card-edit-save = Save the change
card-edit-cancel = Cancel

## When a card's request ended before the answer arrived

ended-quitting = Too late: Ask First was quitting, so this request was cancelled. Your click changed nothing and the action did not run.
ended-run-stopped = Too late: the run was stopped, so this request was cancelled. Your click changed nothing and the action did not run.
ended-timed-out = Too late: this request had already timed out and was refused. Your click changed nothing and the action did not run.
ended-unavailable = This request was refused because your answer could not be recorded. Your click changed nothing and the action did not run.
ended-policy = This request was refused by your settings. Your click changed nothing and the action did not run.
ended-refused = This request had already been refused. Your click changed nothing and the action did not run.
ended-allowed = This request had already been allowed, so the action ran.
ended-changed = You changed this request; the changed action is asked about on its own.
ended-not-pending = This request had already ended (it timed out or the run was stopped). Your click changed nothing and the action did not run.
# $reason is what went wrong, in a sentence.
answer-not-sent = Your answer could not be sent: { $reason }

## What a card shows of a command, and of a change to a file

detail-command-title = The command it will run in your workspace folder
detail-command-runs-in = It runs in { $folder }
diff-cut-note = { $count ->
    [one] … 1 line not shown here ({ $added } added, { $removed } removed) …
   *[other] … { $count } lines not shown here ({ $added } added, { $removed } removed) …
}
diff-cut-warning = { $count ->
    [one] This change is too long to show in full: 1 line of it is not shown below. Open "Exact details" to see everything the agent sent.
   *[other] This change is too long to show in full: { $count } lines of it are not shown below. Open "Exact details" to see everything the agent sent.
}
diff-cut-warning-some = This change is too long to show in full: some of it is not shown below. Open "Exact details" to see everything the agent sent.

## What a command did when Ask First tried it on a copy of the folder (shown before the command)

detail-command-tried-title = The command
detail-command-tried-in = It was tried on a copy of { $folder }
tried-label = What the command did on a copy of your folder
tried-heading = What the command did on the copy (Approve does the same in your folder):
tried-nothing = On the copy of your folder, it changed nothing.
# Each group of changes. $shape is "files" (only files), "folders" (only folders) or "both";
# $files and $folders count them.
tried-group-deleted = { $shape ->
    [folders] { $folders ->
        [one] Delete { $folders } folder
       *[other] Delete { $folders } folders
    }
    [both] { $folders ->
        [one] Delete { $folders } folder
       *[other] Delete { $folders } folders
    } and { $files ->
        [one] { $files } file
       *[other] { $files } files
    }
   *[files] { $files ->
        [one] Delete { $files } file
       *[other] Delete { $files } files
    }
}
tried-group-created = { $shape ->
    [folders] { $folders ->
        [one] Create { $folders } folder
       *[other] Create { $folders } folders
    }
    [both] { $folders ->
        [one] Create { $folders } folder
       *[other] Create { $folders } folders
    } and { $files ->
        [one] { $files } file
       *[other] { $files } files
    }
   *[files] { $files ->
        [one] Create { $files } file
       *[other] Create { $files } files
    }
}
tried-group-changed = { $count ->
    [one] Change { $count } file
   *[other] Change { $count } files
}
tried-group-moved = { $shape ->
    [folders] { $folders ->
        [one] Move { $folders } folder
       *[other] Move { $folders } folders
    }
    [both] { $folders ->
        [one] Move { $folders } folder
       *[other] Move { $folders } folders
    } and { $files ->
        [one] { $files } file
       *[other] { $files } files
    }
   *[files] { $files ->
        [one] Move { $files } file
       *[other] Move { $files } files
    }
}
tried-group-mode = { $shape ->
    [folders] { $folders ->
        [one] Change permissions of { $folders } folder
       *[other] Change permissions of { $folders } folders
    }
    [both] { $folders ->
        [one] Change permissions of { $folders } folder
       *[other] Change permissions of { $folders } folders
    } and { $files ->
        [one] { $files } file
       *[other] { $files } files
    }
   *[files] { $files ->
        [one] Change permissions of { $files } file
       *[other] Change permissions of { $files } files
    }
}
tried-group-link = { $count ->
    [one] Create or change a link
   *[other] Create or change { $count } links
}
# One change in a group. $path is its place in your folder; $target is where a link leads.
tried-item-folder-whole = the folder { $path }, with everything in it
tried-item-folder = the folder { $path }
tried-item-executable = Make { $path } executable (it can then run as a program)
tried-item-runs = it can run as a program
tried-item-mode = { $path } (who may read, change or run it)
tried-item-mode-folder = the folder { $path } (who may open or change it)
tried-item-link = { $path }, which leads to { $target }
tried-item-link-outside = { $path }, which leads to { $target }, outside your folder
tried-mode-tip = The new permissions as the computer writes them: r reads, w changes, x runs; for the owner, the group, then everyone else.
tried-show-diff = Show what changes in it
tried-show-all = Show all { $count }
tried-more = { $count ->
    [one] And { $count } more change not listed here (approving makes it too).
   *[other] And { $count } more changes not listed here (approving makes them too).
}
tried-printed = { $lines ->
    [one] What it printed ({ $lines } line)
   *[other] What it printed ({ $lines } lines)
}
tried-printed-nothing = It printed nothing.

## Errors the window words itself

internal-failure = Something went wrong inside Ask First, so this was not done. Try again; if it keeps happening, close Ask First and start it again.

## The conversation

transcript-label = Conversation
transcript-new-below = { $count ->
    [one] New: 1 message
   *[other] New: { $count } messages
}
transcript-try-again = Try again
transcript-empty = Tell the agent what to do below. It can look at files on its own, but it will ask you before it changes anything.
transcript-you = You
# $provider is the name of who answers ("Demo", "OpenAI").
transcript-answered-by = Answered by: { $provider }
transcript-resumed = Ask First was closed in the middle of this task. It goes on where it stopped; anything that was waiting for your OK is asked again.
transcript-agent = Agent
transcript-finished = The agent finished.
transcript-stopped = The agent was stopped.
# $message says why, in a sentence.
transcript-failed = The agent stopped: { $message }
transcript-failed-unknown = something went wrong.
transcript-loading = Loading this part of the conversation…
transcript-unloaded-failed = This part of the conversation cannot be shown right now. Scroll away and back to try again.
tool-queued = Waiting its turn
tool-waiting = Waiting for your OK
tool-approved = Approved, runs in its turn
tool-running = Running…
tool-succeeded = Done
tool-succeeded-granted = Done (allowed in this conversation)
tool-succeeded-rule = Done (allowed by your rules)
tool-changed = You changed this action before it ran.
tool-changed-allowed = Your rules allow the changed action without asking, so it was not asked about again.
tool-changed-details = What the assistant asked, and what you changed it to
tool-changed-asked = The assistant asked for:
tool-changed-to = You changed it to:
tool-failed = Failed
tool-denied = Not done: denied
tool-cancelled = Not done: stopped

## Allowed in this conversation

grants-label = Allowed in this conversation
grants-heading = If the assistant asks for exactly one of these again in this conversation, it is done without asking
grants-exact-details = Exact details
grants-stop-allowing = Stop allowing
grants-hint = These end when you start or open another conversation, or close Ask First; reopening this conversation later does not bring them back. Anything else still asks.

## The folder the agent works in

folder-bar-label = The folder the agent works in
folder-missing = This conversation's folder, { $folder }, is no longer there.
folder-demo = Working in the demo folder (sample files)
folder-working-in = Working in: { $folder }
folder-change-new-conversation = Choosing another folder starts a new conversation there; this one keeps its folder.
folder-change-tip = Choose the folder the agent may work in.
folder-change-running = The folder can be changed when the agent has finished.
# $variable is the name of an environment variable.
folder-set-by-env = (set by { $variable })
folder-choose-another = Choose another folder…
folder-change = Change…

## Conversations

sessions-new = Start a new conversation
sessions-running = Stop the agent or let it finish to start or open another conversation.
sessions-open-now = Open now
sessions-open = Open

## The welcome

welcome-step = Welcome to Ask First · step { $step } of { $steps }
welcome-folder-heading = Which folder may the agent work in?
welcome-folder-body = The agent can look at the files in this one folder and, after you say OK on a card, change them. It cannot touch anything outside it.
welcome-pick = Choose a folder…
welcome-demo = Try it with the demo folder (sample files)
welcome-folder-fixed = The folder is set when Ask First starts ({ $variable }).
welcome-next = Next
welcome-skip = Skip for now
welcome-provider-heading = Who answers?
welcome-provider-body = The agent needs a model to think with. You can change this later in Settings.
welcome-back = Back

## Error details

error-details = Details
error-hide-details = Hide details
error-detail-cut = { $count ->
    [one] … (1 more character not shown)
   *[other] … ({ $count } more characters not shown)
}

## Showing text exactly: changes, JSON, hidden characters

diff-label = What will change
diff-unchanged-between = Lines in between are unchanged
diff-no-newline = (the line above has no line break after it)
visible-escape-tip = A hidden or control character, shown as its code so it cannot hide or reorder the text
# $at is where the first mistake is: the number of the character, counted from 1.
json-invalid = Not valid JSON (a mistake at character { $at }); shown as sent:
json-folded = Some of this is folded to keep the window quick ({ $chars } characters in all).
json-folded-lines = Some of this is folded to keep the window quick ({ $chars } characters in all, { $lines } lines).
json-show-all = Show everything
json-fold = Fold lines { $from } to { $to }
json-unfold = Unfold { $count } hidden lines
json-lines-folded = … { $count } lines folded …
json-more-lines = … { $count } more lines hidden …
json-more-chars = … { $count } more characters hidden …

## Who answers (Settings and the welcome)

provider-legend = Who answers
provider-hint-demo = No AI: a fixed script shows how Ask First asks before it acts. Good for trying it out.
provider-hint-ollama = A model running on this computer with Ollama. Nothing you write leaves the computer.
provider-hint-openai = A service on the internet that needs a key: OpenAI, or any service with an OpenAI-compatible address.
provider-hint-anthropic = A service on the internet that needs a key: Anthropic (Claude).
provider-set-at-start = Set when Ask First was started: { $provider }
provider-looking = Looking for Ollama on this computer…
provider-installed-models = Installed models
provider-not-installed = { $model } (not installed)
technical-details = Technical details
provider-look-again = Look again
provider-address = Address of the service
provider-model = Model
provider-api-key = API key
provider-api-key-optional = API key (if the service needs one)
provider-key-saved = A key is saved (type to replace it)
provider-key-paste = Paste your key
provider-remove-key = Remove the saved key
provider-use-this = Use this
connection-test = Test the connection
connection-testing = Testing…
connection-sending = Sending one short question…

## Your rules (Settings)

rules-heading = Your rules
rules-added = Rule added.
rules-changed = Rule changed.
rules-removed = Rule removed.
# Followed by the rules file's path.
rules-intro = What the agent may do without asking, must always ask about, or may never do. A change applies from the agent's next action; a request already waiting still waits for your answer. They are kept in a file you can also edit by hand.
rules-file-where = Where the file is
rules-file-mistake = Your rules file cannot be read or has a mistake, so none of its rules are in use: Ask First asks before every action until it is fixed, and does not change the file from here. Fix the file (or delete it to start again).
rules-none = No rules: reading runs, everything else asks.
rules-change = Change
rules-remove = Remove
rules-as-written = As written in the file
rules-file-line = (line { $line } of { $file })
rules-by-hand = This rule was written by hand in a way the choices here cannot show, so it is changed in the file itself: { $file }.
rules-by-hand-line = This rule was written by hand in a way the choices here cannot show, so it is changed in the file itself: { $file }, line { $line }.
rules-change-title = Change this rule
rules-add = Add a rule
rule-everywhere = Everywhere
rule-in-folder = In one folder
rule-one-command = One command
rule-one-site = One web site
rule-what-happens = What happens
rule-allow = Always allow, without asking
rule-ask = Always ask me first
rule-never = Never
rule-to-what = To what
rule-where = Where
rule-folder = The folder, inside your folder
rule-folder-example = for example Private or Photos/2024
rule-command = The command's words
rule-command-example = for example git status
rule-command-more = and anything after these words
rule-site = The web site
rule-site-example = for example example.com
rule-site-sub = and its sub-domains (www.… and the others)
rule-choose = Choose…
rule-save = Save the rule
rule-cancel = Cancel

## MCP servers (Settings)

mcp-heading = Extra tools (MCP servers)
mcp-intro = Programs that give the agent more tools. Every action they offer still asks you first, unless you trust the server's own "only reads" labels.
mcp-none = None yet.
mcp-saved = MCP server "{ $name }" saved. The next task can use its tools.
mcp-removed = MCP server "{ $name }" removed.
mcp-trusted = Trusted to say which tools only read.
# Followed by the variables' names.
mcp-variables = Variables (values hidden):
mcp-edit = Edit
mcp-edit-label = Edit MCP server { $name }
mcp-remove-question = Remove it?
mcp-remove-yes = Yes, remove
mcp-keep = Keep
mcp-remove-label = Remove MCP server { $name }
mcp-form-label = MCP server
mcp-name = Name (up to 40 letters, digits, - and _)
mcp-command = Command that starts it
mcp-command-example = npx -y @modelcontextprotocol/server-filesystem ~/Documents
mcp-command-hint = Quote a word that has spaces in it: 'My files'.
mcp-env = Environment variables
mcp-env-name = Variable name
mcp-env-name-example = NAME
mcp-env-value-of = Value of { $name }
mcp-env-value-of-unnamed = Value of the variable
mcp-env-saved = Saved (type to replace)
mcp-env-value = Value
mcp-env-remove = Remove variable { $name }
mcp-env-add = Add a variable
mcp-trust = Trust this server's labels: its tools that say they only read run without asking
mcp-save = Save server
mcp-add = Add an MCP server

## Settings

settings-close = Close
settings-language = Language
# $language is the name of the language now in use, in its own words.
settings-language-desktop = Same as the desktop ({ $language })
settings-timeout = Seconds to wait for your answer before saying no
settings-timeout-range = Enter a whole number of seconds from { $min } to { $max } for the waiting time.
settings-notify = Notifications when something needs your OK
settings-notify-unfocused = When Ask First is in the background
settings-notify-always = Always
settings-notify-never = Never
settings-notify-approve = Let me approve from notifications
settings-notify-approve-new-files = Creating new files
settings-notify-approve-note = The notification then has Approve for a new file in your folder. Deleting, commands, anything outside the folder and what your rules ask about always need the card.
settings-start-at-login = Start Ask First when I log in
# $settings is a list of the settings below ("who answers and the model").
settings-fixed = Set when Ask First was started, so they cannot be changed here: { $settings }.
setting-provider = who answers
setting-base-url = the address of the service
setting-model = the model
setting-api-key = the API key
setting-timeout = the waiting time
setting-notify = notifications
settings-save = Save
settings-saved = Saved. The next task uses these settings.
# Followed by the folder's path.
settings-works-in = The agent works in:
settings-show-welcome = Show the welcome again
settings-grants = If the assistant asks for exactly one of these again in this conversation, it is done without asking (this ends when you start or open another conversation, or close Ask First):
settings-grants-none = Nothing: every action that needs your OK asks.

## A request from another agent on this computer (the inbox)

card-eyebrow-external = Another program on this computer asks
external-who-asks-title = Who asks
external-who-asks = { $agent }, in the folder { $folder }
external-who-asks-to-run = { $agent }, in the folder { $folder }, would run:
external-tooltip = This request comes from { $agent }, another program on this computer, not from Ask First's own assistant. It works in its own folder, not the one you chose for Ask First.

## Other agents on this computer (Settings)

other-agents-heading = Other agents on this computer
other-agents-gone-heading = Requests that ended unanswered
other-agents-gone-asked = { $agent } asked:
other-agents-gone-asked-unknown = Another program asked:
other-agents-gone-said = Ask First was closed before you answered; { $agent } is no longer waiting for this, and it was not allowed.
other-agents-gone-said-unknown = Ask First was closed before you answered; the program that asked is no longer waiting for this, and it was not allowed.
other-agents-gone-dismiss = Dismiss
other-agents-gone-dismiss-label = Dismiss this request of { $agent }
other-agents-gone-dismiss-label-unknown = Dismiss this request
other-agents-gone-more = { $count ->
    [one] and 1 more request like these
   *[other] and { $count } more requests like these
}
other-agents-intro = Other AI agents you run in a terminal can ask you here instead, on the same cards. Connect adds Ask First to the agent’s own settings; Disconnect removes exactly that.
other-agents-not-found = Not found on this computer
other-agents-connected = Asks you through Ask First
other-agents-not-connected = Not connected: it asks you in its own window, not here
other-agents-connect = Connect
other-agents-disconnect = Disconnect
other-agents-settings-file = Its settings: { $file }
other-agents-connect-label = Connect { $name }
other-agents-disconnect-label = Disconnect { $name }

## Activity: every change the agent made, and Undo

activity-title = Activity
activity-open = Activity
activity-intro = Everything the agent changed, newest first, in every conversation. You can undo a change, or a whole task.
activity-search = Search by file name or words
activity-empty = Nothing has been changed yet.
activity-no-match = Nothing matches “{ $query }”.
activity-close = Close
activity-undo = Undo
activity-undo-task = Undo this task
activity-confirm-title = Undoing will lose something
activity-confirm-yes = Undo anyway
activity-confirm-no = Keep it as it is
activity-in-conversation = In “{ $title }”
activity-in-untitled = In a conversation without a title
activity-by-person = You approved it
activity-by-rule = A rule of yours allowed it
activity-by-grant = Allowed in that conversation
activity-by-default = Allowed without asking
activity-state-done = Done
activity-state-undone = Undone
activity-state-too-old = Too old to undo: its copy was cleared to save space
activity-state-cannot = Cannot be undone
activity-card-said = The card said:

# Settings → Other agents: Codex runs a hook only once the person trusts it in Codex.
other-agents-codex-trust = Codex runs Ask First's hook only after you trust it: open Codex, type /hooks and trust it there.

## Settings: who does the work (Ask First's own agent, or another agent program it hosts)
worker-heading = Who does the work
worker-intro = Ask First's own agent, or an AI agent program you already use on this computer. Either way, its file changes come to you on a card first. The choice applies to this conversation from its next task on.
worker-own = Ask First's own agent
worker-in-use = (in use)
worker-command = Started with
worker-none-found = No other agent program was found on this computer (Gemini CLI is found as the program gemini, Claude as claude-agent-acp).
worker-use = Use this
worker-saved = From the next task on, this conversation uses it.
worker-sign-in-gemini = Gemini CLI signs in on its own: run gemini once in a terminal and choose how to sign in (or set GEMINI_API_KEY). Ask First never sees your sign-in.
worker-sign-in-claude = Claude uses Claude Code's sign-in: run claude once in a terminal and sign in (or set ANTHROPIC_API_KEY). Ask First never sees your sign-in.
worker-not-shut-in = Not shut in yet: what { $agent } does with its own tools (its commands, and files it reads or changes itself) is not confined by Ask First. You see only what it asks your permission for, and it could read files outside this folder without asking.
worker-sign-in-other = This agent signs in on its own: run it once in a terminal and follow its steps. Ask First never sees your sign-in.
# $agent is the name of the agent program that asks ("Gemini CLI").
approval-agent-asks = Asked by { $agent }
