# Ask First's sentences in English: the source every translation follows.
#
# For translators: each line is `key = sentence`. Change only the text after " = ".
# Keep every { $name } (a file name, a count, …) somewhere in your sentence: it is filled in
# when the sentence is shown. A block such as
#     key = { $count ->
#         [one] …
#        *[other] …
#     }
# picks the form for the number (the one marked * is used when no other fits).
# A line of its own that continues a sentence starts with spaces.
#
# For developers: a new sentence gets a new key here and in every other locales/*/app.ftl;
# render it with askfirst_core::i18n::tr("the-key", &[("name", Arg::from(value))]).
# tests/all/i18n.rs fails when a key is missing in a language or not used by the code.

## Why an action was not performed, as the person is told it (the model is told in English, in code).

not_run-denied_by_person = You said no. The action was not performed.
not_run-denied_by_person_with_note = You said no, with the note: "{ $note }". The action was not performed.
not_run-timed_out = You did not answer in time, so it was not performed.
not_run-denied_by_rule = This action is not allowed by your settings. It was not performed.
not_run-denied_by_rule_with_reason = This action is not allowed by your settings ({ $reason }). It was not performed.
not_run-hard_denial = Ask First never allows this: { $reason } It was not performed.
not_run-unavailable = This action could not be approved, so it was not performed.
not_run-unavailable_with_reason = This action could not be approved ({ $reason }), so it was not performed.
not_run-cancelled-run_aborted = You stopped the run; this action was not performed.
not_run-cancelled-app_shutdown = The app was closed; this action was not performed.
not_run-interrupted-run_aborted = You stopped the run while this action was running; it was stopped before it finished.
not_run-interrupted-app_shutdown = The app was closed while this action was running; it was stopped before it finished.
not_run-no_longer_awaited-run_aborted = You stopped the run while this action was running. Ask First stopped waiting for it, so whether it was done is not known.
not_run-no_longer_awaited-app_shutdown = The app was closed while this action was running. Ask First stopped waiting for it, so whether it was done is not known.
not_run-changed_after_shown = Not done: the file or folder changed after this was shown for approval ("{ $summary }"), so it would no longer do what was shown. Nothing was changed; ask again with it as it is now.
not_run-run_ended_before = The run was stopped before this action; it was not performed.
not_run-output_limit = The actions of this task have produced { $limit_mb } MB of output, the most Ask First passes on in one task (limit { $limit_mb } MB), so the task ends here; this action was not performed.
not_run-too_many_calls = Not done: the agent asked for { $asked } actions at once, and Ask First does at most { $limit } at a time, so the other { $left_out } were not looked at, asked about or performed. It was told to ask for fewer.
not_run-closed_before_start = It was allowed, but Ask First was closed before it started, so it was not performed.
not_run-may_have_run = Ask First stopped while this was running, so it may have been done, in part or in full. Check before relying on it.
not_run-refused_end_not_saved = This action was not performed.
not_run-end_not_saved = How this ended was not saved (Ask First could not write its history then), so it is not known whether it was done.

## What a command card says a command will do.

command-runs_downloaded = Runs a script it downloads from { $hosts }: Ask First cannot see what that script will do.
command-runs_downloaded_anywhere = Runs a script it downloads from the internet: Ask First cannot see what that script will do.
command-shell_features = Uses shell features (variables, substitutions, file name patterns or redirections), so Ask First cannot tell everything it does before it runs.
command-builds_commands = Makes up the commands it runs while it runs ({ $how }), so Ask First cannot tell what they will do.
command-unknown-confined = Ask First cannot tell what { $programs } does.
command-unknown-unconfined = Ask First cannot tell what { $programs } does.
command-leaves_folder = First goes to another folder ({ $to }), so the names after that may be outside your folder.
command-deletes_folder = Deletes the folder { $name } permanently, with everything in it (it does not go to the trash).
command-deletes_file = Deletes the file { $name } permanently (it does not go to the trash).
command-deletes_missing = Deletes { $name } permanently if it is there when the command runs (nothing has that name now).
command-deletes_pattern = Deletes permanently whatever { $name } names when the command runs; Ask First cannot tell which files those are.
command-deletes_files = Deletes { $count } files permanently (they do not go to the trash): { $names }
command-deletes_folders = Deletes { $count } folders permanently, with everything in them (they do not go to the trash): { $names }
command-deletes_mixed = Deletes { $count } files and folders permanently (they do not go to the trash): { $names }
command-deletes_given = Deletes permanently the files it is given by the command before it; Ask First cannot tell which.
command-deletes_found = Deletes permanently every file it finds (they do not go to the trash).
command-deletes_empty_folders = Deletes the empty folders { $names }
command-destroys = Destroys the contents of { $names } beyond recovery
command-writes = Replaces or creates the file { $name }
command-appends = Adds to the end of (or creates) the file { $name }
command-writes_files = Changes the files { $names }
command-writes_outside-blocked = Writes outside your folder ({ $name }). It runs shut in, so that part will fail.
command-writes_outside-thrown_away = Writes outside your folder ({ $name }). It runs shut in and sees an empty stand-in there, thrown away when it ends, so nothing there changes.
command-writes_outside-unconfined = Writes outside your folder ({ $name }), and on this computer nothing stops it.
command-reads_outside = Reads outside your folder: { $name }
command-reads_outside-hidden = Looks outside your folder ({ $name }); that place is hidden from it, so it finds nothing there.
command-moves = Moves or renames files: { $names }
command-copies = Copies files, replacing any with the same name where they go: { $names }
command-permissions = Changes permissions of { $names }
command-owner = Changes who owns { $names }
command-stops_programs = Stops running programs ({ $program })
command-administrator = Runs with administrator rights ({ $program }): it could change anything on the computer.
command-downloads = Downloads from { $hosts } ({ $program })
command-downloads_anywhere = Downloads from the internet ({ $program })
command-sends = Sends data to { $hosts } ({ $program })
command-sends_anywhere = Sends data to the internet or another computer ({ $program })
command-replaces_remote = Sends data to the internet and replaces what is there (git push --force)
command-discards_changes = Throws away uncommitted changes for good ({ $command })
command-deletes_untracked = Deletes files Git does not track, for good (git clean)
command-background-confined = Runs part of itself in the background; everything it starts is stopped when the command ends.
command-background-unconfined = Runs part of itself in the background, which may keep running after the command ends.
command-background_program-confined = Starts a program in the background ({ $program }); everything it starts is stopped when the command ends.
command-background_program-unconfined = Starts a program in the background ({ $program }) that may keep running after the command ends.
command-keeps_running = Keeps running until you press Stop or its time limit passes ({ $program })
command-runs_script = Runs the script { $script }, whose steps Ask First cannot see.
command-runs_input = Runs commands that { $program } reads from its input (for example the output of the command before it), which Ask First cannot see in advance.
command-runs_code = Runs { $language } code given on the command line, whose steps Ask First cannot see.
command-runs_build = Runs the project's build steps ({ $command }), whose steps Ask First cannot see.
command-runs_program = Runs the program { $path } from your folder, whose steps Ask First cannot see.
command-installs_packages = Downloads from the internet and installs packages ({ $command }), which may run their own install scripts, whose steps Ask First cannot see.
command-runs_package = Downloads and runs a package ({ $command }), whose steps Ask First cannot see.
command-runs_project_script = Runs the project's script { $script } ({ $command }), whose steps Ask First cannot see.
command-installs_software = Downloads from the internet and installs software ({ $command })
command-containers = Downloads from the internet and runs containers ({ $command })
list-join = { $first }, { $rest }
list-pair = { $first }, { $second }
list-and_more = { $names } and { $count } more
command-more = …and { $count } more.

## Whether a command runs shut in, the first line of its card (src-tauri/core/src/tools/sandbox.rs).

confinement-shut_in = It runs shut in: it can change only files in your workspace folder, cannot see the rest of your home folder or Ask First's files, and everything it starts is stopped when it ends. It can use the internet.
confinement-not_shut_in = It is not shut in on this computer: it can read and change any of your files, including Ask First's own, and anything it starts in the background may keep running. Approve it only if you trust this command.
confinement-no_copy = Ask First cannot try it on a copy of your folder first on this computer: it runs on your folder itself, so its changes cannot be shown to you before they happen, nor undone.
# $rules: the rules' sentences, as Settings lists them, joined by "; ".
confinement-kept = What your rules keep is hidden from it: { $rules }.
# $rules: as above; $more: how many further rules keep places too (1 or more).
confinement-kept_more = What your rules keep is hidden from it: { $rules }; and { $more } more.
# $rules: the sentences of rules about changing files, as above.
confinement-read_only = Whatever it tries, it cannot change, move or delete what these rules protect (it can read it): { $rules }.
# $rules: as above; $more: how many further such rules (1 or more).
confinement-read_only_more = Whatever it tries, it cannot change, move or delete what these rules protect (it can read it): { $rules }; and { $more } more.

## Errors the window shows (src-tauri/core/src/app/codes.rs). Each says what happened and what to do.

error-run-empty_task = Please type a task for the agent first.
error-run-busy = The agent is still working on the previous task. Stop it or wait for it to finish.
acp-no_command = Type the command that starts the agent (for example: gemini --acp).
error-run-folder_gone = The folder this conversation works in, { $path }, is no longer there. Choose a folder for it with "Change…" above the task box.
error-internal = Something went wrong inside Ask First, so this was not done. Try again; if it keeps happening, close Ask First and start it again.
error-session-busy = The agent is still working. Stop it or wait for it to finish first.
error-session-folder_fixed = The folder is set by ASKFIRST_WORKSPACE when Ask First starts, so it cannot be changed here. Start Ask First without it to choose a folder.
error-session-unreadable = This conversation could not be opened, because its history cannot be read (it may have been moved or deleted). Pick another conversation, or start a new one.
error-session-not_writable = Ask First cannot write this conversation's history, so it was not opened. Free up some space on the disk, or make sure Ask First may write to its data folder, then try again.
error-history-unreadable = Ask First could not read back what happened so far in this conversation, so the window cannot show all of it. Open the conversation again from the list of past conversations; its history on disk is whole.
error-approval-not_pending = This request is no longer waiting: it was already answered, it timed out, or its task was stopped. Nothing was changed; look at the requests still shown.
error-approval-not_grantable = This action cannot be allowed without asking again. Approve it once, or deny it.
error-approval-required = "{ $summary }" needs someone's OK, and nobody is there to give it here. Run the task in the Ask First window to answer it.
error-approval-log = Ask First cannot save its history right now, so it did not do this. Free up some space on the disk, or make sure Ask First may write to its data folder, then try again.
error-approval-shutting_down = Ask First is closing, so nobody was asked and the action was not performed. Start Ask First again to go on.
error-approval-change-not_offered = This request cannot be changed here. Approve it or deny it; a note with Deny tells the assistant what to do instead.
error-approval-change-too_big = What you typed is too long for one action. Make it shorter, or deny the request and tell the assistant what to do instead.
error-approval-change-same = Nothing was changed. Edit the text first, or choose Cancel to leave the request as it was.
error-settings-unknown_provider = Ask First does not know that model service. Choose one from the list in Settings.
error-settings-timeout_out_of_range = The waiting time must be between { $min } and { $max } seconds. Choose a waiting time in that range and save again.
error-settings-file_unreadable = Your settings file cannot be read or has a mistake, so Settings will not save over it. Fix the file or delete it, then try again.
error-settings-save_failed = Your settings could not be saved. Make sure the disk is not full and that Ask First may write to its data folder, then try again.
error-settings-no_such_rule = That rule is no longer in your rules (the rules file may have been changed). Close Settings and open it again to see the rules as they are now.
error-settings-rules_unreadable = Your rules could not be read, so nothing was changed. Make sure Ask First may read and write its data folder, then try again.
error-settings-rules_invalid = Your rules file has a mistake, so nothing was changed. Fix the file (or delete it to start again), then try again.
error-settings-mcp_server = { $problem } Check the server's settings, then try again.
error-settings-keyring_remove = The key could not be removed from the desktop's keyring (the rest of your settings were saved). Try again, or remove it with the desktop's passwords app, where it is listed under "Ask First".
error-startup-already_running = Ask First is already running. Use its window (it may be in the tray or among the minimised windows).
error-startup-no_data_dir = Ask First cannot tell where to keep its settings on this system. Set ASKFIRST_DATA_DIR to a folder it may use, then start it again.
error-startup-bad_setting = One of the ASKFIRST_ settings Ask First was started with cannot be used. Correct it or leave it out (the details say which), then start Ask First again.
error-startup-folder = Ask First cannot use one of its folders: it may not be allowed to write there, or the disk may be full. Make sure it may write to its data folder and your folder, then start it again.
error-startup-window = Ask First could not open its window. Start it from your desktop (it needs a graphical session), then try again.

## Notifications (src-tauri/src/notify.rs).

start_at_login-failed = Ask First could not change whether it starts when you log in. Nothing was changed.
notify-title = Ask First needs your OK
notify-open = Open
notify-deny = Deny
notify-approve = Approve once
notify-folder = Folder: { $folder }
notify-folder-demo = Folder: the demo folder (sample files)
notify-many = { $count ->
    [one] { $count } action is waiting
   *[other] { $count } actions are waiting
}
notify-still_running-title = Ask First is still running
notify-still_running-body = Ask First keeps working in the background and will ask here when it needs your OK. Open it from the tray icon or start it again; quit it from the tray menu.

## The tray icon's menu and tooltip (src-tauri/src/tray.rs).

tray-pending = { $count ->
    [0] No approvals waiting
    [one] { $count } approval waiting
   *[other] { $count } approvals waiting
}
tray-more = …and { $count } more in the window
tray-review = Review: { $label }
tray-show = Show Ask First
tray-quit = Quit
tray-tooltip = { $count ->
    [0] Ask First
    [one] Ask First — { $count } request waiting for your OK
   *[other] Ask First — { $count } requests waiting for your OK
}

## How a task ended, as the conversation shows it (src-tauri/core/src/agent/wording.rs).

run-broke = Something went wrong inside Ask First and this task stopped. Nothing more will be done for it; you can start a new task.
run-closed_while_working = Ask First was closed while the agent was working.
run-you_stopped = You stopped the agent.
run-unrecorded = Part of this task could not be saved (the disk was full or could not be written), so how it ended is not known.
run-stopped_after_finishing = { $why } What was already being done was finished, since stopping it halfway could have left it half done: { $summary }.
run-output_limit = The agent was stopped: its actions in this task produced more than { $limit_mb } MB of output, the most Ask First allows in one task. Send a new message to go on.
not_run-folder_gone = Not done: your folder { $folder } is no longer there.
run-folder_gone = Your folder { $folder } is no longer there (it was moved or deleted), so the task stopped. Choose another folder to go on.
run-out_of_steps = The agent stopped after { $max_steps } steps without finishing. Send a new message to let it go on, or give it a smaller task.
run-kept_asking = The agent kept asking to do something that was already refused ("{ $summary }"), so it was stopped. Send a new message to tell it what to do instead.

## On an approval card (src-tauri/core/src/agent/wording.rs).

# What "Allow in this conversation" does: say exactly when it ends.
card-grant_scope = While this conversation is open, this exact action (same tool, same details) will run again without asking, as long as what it works on is as shown here or as this action leaves it. Anything different still asks. It ends when you start or open another conversation, or close Ask First.
card-too_many_summary = The agent asked for { $asked } actions at once; the { $left_out } after the first { $limit } were not done
card-use_the_tool = Use an extra tool ({ $name })
card-use-read_file = Read a file
card-use-list_directory = Look at a folder
card-use-write_file = Write a file
card-use-edit_file = Change a file
card-use-move_path = Move or rename a file or folder
card-use-delete_path = Delete a file or folder
card-use-run_command = Run a command
card-use-fetch_url = Open a web page

## The folder chooser (src-tauri/src/folder.rs).

folder-picker_title = Choose the folder the agent may work in

## When Ask First cannot start (src-tauri/src/lib.rs).

startup-failed = Ask First could not start. { $message }
startup-details = Details: { $detail }

## What an approval card says a built-in tool will do (src-tauri/core/src/tools/*.rs).

card-write-create = Create the file { $name } ({ $lines ->
    [one] { $lines } line
   *[other] { $lines } lines
})
card-write-replace = Replace everything in { $name } with new text ({ $lines ->
    [one] { $lines } line
   *[other] { $lines } lines
})
card-read = Read the file { $name }
card-list-workspace = Look at the list of files in your workspace folder
card-list-folder = Look at the list of files in the folder { $name }
card-delete-file = Move { $name } to the trash (you can restore it)
card-delete-folder = Move the folder { $name } to the trash, { $count ->
    [0] it is empty
    [one] with { $count } item inside
   *[other] with { $count } items inside
} (you can restore it)
card-delete-big_folder = Move the folder { $name } to the trash, with more than { $count } items inside (you can restore it)
card-delete-shortcut = Move the shortcut { $name } to the trash; { $target } itself stays (you can restore it)
card-move = Move { $from } to { $to }
card-move-folder = Move the folder { $from } to { $to }
card-command = Run the command `{ $command }` in your workspace folder
card-command-with_limit = Run the command `{ $command }` in your workspace folder (stop it if it runs longer than { $seconds ->
    [one] { $seconds } second
   *[other] { $seconds } seconds
})
card-edit-replace = Replace { $removed ->
    [one] { $removed } line
   *[other] { $removed } lines
} in { $name }
card-edit-remove = Remove { $removed ->
    [one] { $removed } line
   *[other] { $removed } lines
} from { $name }
card-edit-add = Add { $added ->
    [one] { $added } line
   *[other] { $added } lines
} to { $name }
card-edit-replace_with = Replace { $removed ->
    [one] { $removed } line
   *[other] { $removed } lines
} with { $added ->
    [one] { $added } line
   *[other] { $added } lines
} in { $name }
card-fetch-this_computer = Read the web page at { $url } (an address on this computer)
card-fetch-this_computer-risk = The address is on this computer, not on the internet: it reaches a program running here, which may hand out private information or act on the request.
card-fetch-local_network = Read the web page at { $url } (an address on your local network)
card-fetch-local_network-risk = The address is on your local network, not on the internet: a device such as a router, a printer or another computer at home or at work.
card-fetch-cloud_metadata-risk = On a cloud server, this address hands out the server's own settings and access keys.
card-fetch-internet = Read the web page at { $url } (this goes on the internet)
card-fetch-credentials-risk = The address contains a user name or password, which is sent along.
card-fetch-redirects = If the site sends the request on to a different address, Ask First does not follow it: you are asked again about that address.

## Who answers, as the conversation names it ("Answered by: …"; src-tauri/core/src/providers/, scripted.rs).

provider-name-model_at_host = { $model } at { $host }
provider-name-demo = Demo agent (offline, follows a fixed script)
provider-name-scenario = Scripted scenario ({ $path })
# The choices of who answers, in the welcome and Settings (src-tauri/core/src/app/catalog.rs).
provider-choice-demo = The demo (no AI, for trying Ask First out)
provider-choice-openai = A service with a key: OpenAI or a compatible address
provider-choice-ollama = A model on this computer (Ollama)
provider-choice-anthropic = A service with a key: Anthropic (Claude)

## When a model service fails (src-tauri/core/src/provider/error.rs and wording.rs).

provider-script_exhausted = The scripted scenario has no turn left for model call { $step }; it has { $turns } turns. Add a turn to the scenario file, or give the agent a smaller task.
provider-config = Ask First cannot use your settings file to tell which model service should answer. Open Settings and choose who answers again, or fix or delete the file.
provider-missing_key = Add your API key for { $host } in the settings (or { $env_var }).
provider-bad_scenario = The scenario file for the scripted model cannot be used. Check the file that ASKFIRST_PROVIDER names (the details say what is wrong with it).
provider-auth = The API key was refused by { $host }. Check the key in the settings.
provider-model_not_found = The model "{ $model }" was not found at { $host }. Check the model name in the settings.
provider-rate_limited = The model service at { $host } says it is getting too many requests and kept refusing after { $tries } tries. Wait a minute and try again, or check the plan's limits.
provider-busy_too_long = The model service at { $host } is busy and asks to wait longer than Ask First waits between tries ({ $limit } seconds), so this task stopped. Try again in a while, or check the plan's limits.
provider-server_error = The model service at { $host } is having trouble (error { $status }) and kept failing after { $tries } tries. Try again later.
provider-context_too_long = This conversation has grown longer than the model at { $host } can read at once, so it cannot go on here. To go on, click Conversations at the top, then “Start a new conversation”; this one stays in the list. If a new conversation stops the same way, this model reads too little at once for the task: choose another in Settings.
provider-over_plan_limit = This conversation has grown larger than your plan at { $host } accepts in one request, so it cannot go on here, and waiting will not help. To go on, click Conversations at the top, then “Start a new conversation”; this one stays in the list. Or raise the plan's limit with the service.
provider-refused = The model service at { $host } refused the request (error { $status }). Check the address and the model name in the settings.
provider-service_error = The model service at { $host } stopped with an error while answering. Try again.
provider-malformed = The model service at { $host } sent a reply Ask First cannot read. Try again; if it keeps happening, check the address in the settings.
provider-ended_early = The reply from { $host } stopped before it was complete. Try again.
provider-idle_timeout = The model service at { $host } sent nothing for { $waited }, so Ask First stopped waiting. Try again; a model that is still loading may need a moment.
provider-too_slow = The model service at { $host } was still answering after { $limit }, so Ask First stopped waiting. Try again with a smaller task.
provider-connect-refused = Nothing answered at { $host }. Check that the model service is running and that the address in the settings is right.
provider-connect-name_not_found = The address { $host } could not be found. Check the address in the settings and the internet connection.
provider-connect-tls = A secure connection to { $host } could not be made. Check whether the address in the settings should start with http:// or https://.
provider-connect-timed_out = The connection to { $host } took too long. Check the internet connection and the address in the settings.
provider-connect-dropped = The model service at { $host } closed the connection without answering. Try again later.
provider-connect-other = Could not reach the model at { $host }. Check the internet connection and the address in the settings.
provider-not_an_ai_service-web_page = The address { $host } answered with a web page, not a model service; a login page or a network sign-in may be in the way. Check the address in the settings.
provider-not_an_ai_service = The address { $host } did not answer like a model service. Check the address in the settings.
provider-too_large-tool_calls = The model at { $host } asked for more than { $count } actions in one reply, more than Ask First takes at once. Try again with a smaller task.
provider-too_large-reply = The reply from { $host } was larger than { $limit_mb } MB, more than Ask First takes from a model at once. Try again with a smaller task.
provider-too_large-piece = The reply from { $host } had a piece larger than { $limit_mb } MB, more than Ask First takes from a model at once. Try again with a smaller task.
duration-less_than_a_second = less than a second
duration-seconds = { $count ->
    [one] { $count } second
   *[other] { $count } seconds
}
duration-minutes = { $count ->
    [one] { $count } minute
   *[other] { $count } minutes
}

## Why a card asks, or why an action ran without asking (src-tauri/core/src/policy/mod.rs).

reason-granted = Allowed in this conversation: you allowed exactly this action earlier.
reason-mcp-reads = Only reads, says the MCP server "{ $server }", which you trust.
reason-mcp-asks = This uses the MCP server "{ $server }", which could change things or reach the internet, so it needs your OK.
reason-reads = Only reads.
reason-reads-risky = This only reads, but it is marked risky, so it needs your OK.
reason-changes = This changes files in your workspace folder, so it needs your OK.
reason-high_risk = This is a high-risk action, so it needs your OK.
reason-rule-asks = Your rule “{ $rule }” says to ask you first.
reason-rule-allows = Allowed by your rule “{ $rule }”.
reason-rules_unreadable = The rules file { $path } could not be read: { $detail } Until it is fixed, Ask First asks before every action.
reason-rules_mistake = The rules file { $path } has a mistake: { $detail } Until it is fixed, Ask First asks before every action.

## "Test the connection" and the Ollama finder in Settings (src-tauri/core/src/app/probe/).

probe-works = It works: { $model } at { $host } answered.
probe-no_service_needed = The demo needs no connection: it answers from a fixed script, without an AI.
probe-bad_address = "{ $text }" is not a web address. It should look like https://api.example.com/v1.
probe-missing_key = { $host } needs an API key. Paste your key above, then test again.
probe-key_refused = The key was refused by { $host }. Check that you copied the whole key and that it is still valid.
probe-not_an_ai_service-web_page = { $host } answered with a web page, so it is not an AI service; a sign-in page may be in the way. Check the address.
probe-not_an_ai_service = { $host } answered, but it is not an AI service Ask First can use. Check the address (for OpenAI-compatible services it often ends in /v1).
probe-model_not_found = { $host } has no model called "{ $model }", and it did not say which it has. Check the model name.
probe-model_not_found-choose = { $host } has no model called "{ $model }". Choose one it has: { $models }.
probe-rate_limited = { $host } says it is getting too many requests right now. Wait a minute and test again.
probe-out_of_credit = { $host } says the account has no credit or quota left. Check the plan and billing with the service.
probe-service_trouble = { $host } is having trouble on its side (error { $status }). Try again later.
probe-service_error = { $host } stopped with an error while answering. Try again later.
probe-refused = { $host } refused the test (error { $status }). Check the address and the model name.
probe-too_slow = { $host } did not answer within { $waited }, so Ask First stopped waiting. A local model that is still loading may need another try.
probe-connect-refused = Nothing answers at { $host }. Check the address, and that the service is running.
probe-connect-name_not_found = The address { $host } could not be found. Check the address and the internet connection.
probe-connect-tls = A secure connection to { $host } could not be made. Check whether the address should start with http:// or https://.
probe-connect-timed_out = Nothing answered at { $host } in time. Check the address and the internet connection.
probe-connect-dropped = { $host } closed the connection without answering. Try again later.
probe-connect-other = { $host } could not be reached. Check the address and the internet connection.
probe-no_local_model = No local model is running on this computer. Install Ollama (ollama.com) and start it, or choose another way to answer.
probe-ollama-no_models = Ollama is running on this computer, but it has no models yet. Get one with Ollama (for example: ollama pull llama3.1), or choose another way to answer.
probe-ollama-models = Ollama is running with { $count ->
    [one] { $count } model
   *[other] { $count } models
}. Choose which one answers.
probe-ollama-not_answering = Ollama does not answer at { $host }. Check the address, or choose another way to answer.
probe-ollama-not_ollama = Something answers at { $host }, but it is not Ollama. Check the address, or choose another way to answer.

## When the folder the person chose cannot be used (src-tauri/core/src/app/folder.rs).

folder-unopenable = The folder { $path } could not be opened. Make sure you may open it, or choose another folder.
folder-not_saved = The folder is used now, but Ask First could not remember it for next time. Make sure the disk is not full and Ask First may write to its data folder, then choose it again.
folder-missing = The folder { $path } does not exist. Choose a folder that is there.
folder-not_a_folder = That is a file, not a folder: { $path }. Choose a folder.
folder-whole_computer = That is the whole computer. Choose one folder with the files the agent should work on, such as Documents.
folder-home_folder = That is your whole home folder, with all your files. Choose one folder inside it, such as Documents, for the agent to work in.
folder-own_data = That folder holds Ask First's own files (its settings, keys and history), which the agent must never change. Choose another folder.
folder-case_without_identity = That folder is on a disk that does not tell capital letters from small ones in a way Ask First can check, so your rules could not be kept there. Copy the files to a folder on this computer's own disk, or choose another folder.
folder-session_files = That folder holds your desktop session's private files (where the keyring and other programs listen), which the agent must never reach. Choose another folder.

## Undo and Activity (src-tauri/core/src/undo/words.rs, app/codes.rs UndoError)

undo-bytes = { $count ->
    [one] { $count } byte
   *[other] { $count } bytes
}
undo-too-large-on-card = This change cannot be undone: the file is { $size }, too large for Ask First to keep a copy of.
undo-too-large = The file was { $size }, too large for Ask First to keep a copy of.
undo-command = Commands cannot be undone: Ask First cannot see everything a command changed.
undo-other-program = Ask First cannot undo what another program's tool did; it can only show what the card said.
undo-no-copy = Ask First kept no copy from before this change (it was made before Undo existed).
undo-copy-refused = Ask First could not keep a copy of { $file } to undo this change (the disk may be full), so it did not change the file. Free some space, then try again.
undo-changed-since = { $file } was changed after the agent's change. Undoing puts back the version from before the agent's change, and those later changes will be lost.
undo-changed-since-created = { $file } was changed after the agent created it. Undoing moves it to the trash with those changes (you can restore it from there).
undo-changed-since-more = { $count ->
    [one] One more file of the task was changed after the agent's change too, and those changes will be lost as well.
   *[other] { $count } more files of the task were changed after the agent's change too, and those changes will be lost as well.
}
undo-undone = Undone: { $summary }.
undo-task-undone = { $count ->
    [one] Undid the task's only change.
   *[other] Undid the task's { $count } changes, newest first.
}
undo-not-recorded = Ask First could not write this change down in the conversation's history, so it did not make it. Free some space, then try again.
error-undo-not_found = This change is no longer in the conversation's history, so it cannot be undone. Close Activity and open it again to see what is there.
error-undo-already_undone = This was already undone, so nothing else was changed. Look in Activity to see it marked as undone.
error-undo-cannot_undo = { $why } Look at the files yourself to put things back.
error-undo-too_old = The copy needed to undo this change was cleared to save space (the oldest copies go first), so it cannot be undone any more. Look in the trash or a backup for an older version.
error-undo-folder_gone = The folder { $folder } this change was made in is not there any more, so it cannot be undone. Put the folder back where it was, then try again.
error-undo-place_taken = Something else is at { $path } now, so nothing was put back there. Move or rename it, then try again.
error-undo-gone = "{ $path }" is not there any more, so there is nothing to undo. Look in the trash if you miss it.
error-undo-gone_from_trash = "{ $path }" is no longer in the trash (it may have been emptied), so it cannot be restored. Look in a backup if you have one.
error-undo-log = Ask First could not write the undo down in the conversation's history, so it did not undo anything. Free some space, then try again.
error-undo-failed = Undoing did not work, and the file was left as it is. Try again; if it keeps failing, look at Details.
error-undo-task_stopped = Undid { $undone } of the task's { $total } changes, newest first, then stopped at "{ $summary }": { $why } The older changes were left as they are.
error-undo-not_a_folder = "{ $folder }" is not a folder any more: something else, such as a shortcut to another place, is where it was. Ask First does not undo through it, so nothing was changed. Put the folder back where it was, then try again.

## Other agents on this computer (src-tauri/core/src/inbox/words.rs, app/codes.rs ConnectError)

inbox-wants-run = { $agent }, in the folder { $folder }, wants to run `{ $command }`
inbox-wants-write = { $lines ->
    [one] { $agent }, in the folder { $folder }, wants to write the file { $path } ({ $lines } line)
   *[other] { $agent }, in the folder { $folder }, wants to write the file { $path } ({ $lines } lines)
}
inbox-wants-edit = { $agent }, in the folder { $folder }, wants to change the file { $path }
inbox-wants-read = { $agent }, in the folder { $folder }, wants to read the file { $path }
inbox-wants-fetch = { $agent }, in the folder { $folder }, wants to fetch { $url } from the internet
inbox-wants-use = { $agent }, in the folder { $folder }, wants to use its tool "{ $tool }"
inbox-reason = { $agent } asks you here instead of in its terminal. It works in its own folder, not in the one you chose for Ask First, and Ask First does not confine what it does.
inbox-not-ours = This is { $agent }'s own request: if you approve, { $agent } does it itself.
inbox-no-home = Ask First does not know your home folder, so it cannot find the other agents' settings.
inbox-cannot-read = Ask First cannot read { $agent }'s settings file. Check that it is valid, then try again.
error-connect-no_home = Ask First does not know your home folder, so it cannot change the agent's settings. Start Ask First from your desktop session, then try again.
error-connect-no_hook = The program askfirst-hook is not installed beside Ask First, so the agent cannot be connected. Install Ask First again, then try again.
error-connect-io = Ask First could not change the agent's settings file. Make sure the file may be written, then try again.
error-connect-not_settings = The agent's settings file has a mistake in it, so Ask First left it unchanged. Correct the file (or move it away), then try again.

# The inbox: an allow rule matched another agent's request, which is still asked.
inbox-allow-rule-not-applied = One of your rules would allow this for Ask First's own assistant, but { $agent } is not kept inside your folder the way Ask First's assistant is, so you are asked.
# The inbox: another agent's command works in a folder that holds what the person's rules keep.
# $rules: the rules' sentences, as Settings lists them, joined by "; "; $more: how many more.
inbox-command-reaches-kept = { $agent } runs this command itself, so Ask First cannot hide from it what your rules keep, and it works in a folder that holds some of it: { $rules }. It could read or change those places without naming them. Approve it only if you are sure it leaves them alone.
inbox-command-reaches-kept_more = { $agent } runs this command itself, so Ask First cannot hide from it what your rules keep, and it works in a folder that holds some of it: { $rules }; and { $more } more. It could read or change those places without naming them. Approve it only if you are sure it leaves them alone.
inbox-command-reach-unknown = { $agent } runs this command itself, and its words do not show everything it reads or changes (it runs code or a program Ask First cannot see into). It could reach Ask First's own files, with your settings and keys, which Ask First cannot hide from it. Approve it only if you trust what it runs.
inbox-command-near-own-files = { $agent } runs this command itself, in a folder that holds Ask First's own files (your settings, keys and history), which Ask First cannot hide from it. Approve it only if you are sure it leaves them alone.
# The inbox: what "Allow in this conversation" does on another agent's card (its own session permission).
inbox-session-command = { $agent } will not ask again for exactly `{ $command }` until you close that { $agent } conversation. It remembers this itself, so Ask First will not be asked about it again either.
inbox-session-site = { $agent } will not ask again to fetch pages from { $host } until you close that { $agent } conversation. It remembers this itself, so Ask First will not be asked about it again either.
## A rule as a sentence (src-tauri/core/src/policy/words.rs). $kind is the rule's list (deny: never,
## ask: ask first, allow: always); $shape what it is about: all (everything), folder, path (one file
## or folder), matching (a pattern as written), command / command_more (a command, or a command with
## anything after it), site / site_sub (a web site, or a site and its sub-domains).
# Write each whole sentence in the language's own order; keep every { $name }.

rule-read_file = { $kind ->
        [deny] { $shape ->
               *[all] Never read files
                [folder] Never read files in { $folder }
                [path] Never read { $path }
                [matching] Never read files matching “{ $pattern }”
        }
       *[ask] { $shape ->
               *[all] Ask before reading files
                [folder] Ask before reading files in { $folder }
                [path] Ask before reading { $path }
                [matching] Ask before reading files matching “{ $pattern }”
        }
        [allow] { $shape ->
               *[all] Always allow reading files
                [folder] Always allow reading files in { $folder }
                [path] Always allow reading { $path }
                [matching] Always allow reading files matching “{ $pattern }”
        }
    }
rule-list_directory = { $kind ->
        [deny] { $shape ->
               *[all] Never list folders
                [folder] Never list folders in { $folder }
                [path] Never list { $path }
                [matching] Never list folders matching “{ $pattern }”
        }
       *[ask] { $shape ->
               *[all] Ask before listing folders
                [folder] Ask before listing folders in { $folder }
                [path] Ask before listing { $path }
                [matching] Ask before listing folders matching “{ $pattern }”
        }
        [allow] { $shape ->
               *[all] Always allow listing folders
                [folder] Always allow listing folders in { $folder }
                [path] Always allow listing { $path }
                [matching] Always allow listing folders matching “{ $pattern }”
        }
    }
rule-write_file = { $kind ->
        [deny] { $shape ->
               *[all] Never write files
                [folder] Never write files in { $folder }
                [path] Never write { $path }
                [matching] Never write files matching “{ $pattern }”
        }
       *[ask] { $shape ->
               *[all] Ask before writing files
                [folder] Ask before writing files in { $folder }
                [path] Ask before writing { $path }
                [matching] Ask before writing files matching “{ $pattern }”
        }
        [allow] { $shape ->
               *[all] Always allow writing files
                [folder] Always allow writing files in { $folder }
                [path] Always allow writing { $path }
                [matching] Always allow writing files matching “{ $pattern }”
        }
    }
rule-edit_file = { $kind ->
        [deny] { $shape ->
               *[all] Never change files
                [folder] Never change files in { $folder }
                [path] Never change { $path }
                [matching] Never change files matching “{ $pattern }”
        }
       *[ask] { $shape ->
               *[all] Ask before changing files
                [folder] Ask before changing files in { $folder }
                [path] Ask before changing { $path }
                [matching] Ask before changing files matching “{ $pattern }”
        }
        [allow] { $shape ->
               *[all] Always allow changing files
                [folder] Always allow changing files in { $folder }
                [path] Always allow changing { $path }
                [matching] Always allow changing files matching “{ $pattern }”
        }
    }
rule-move_path = { $kind ->
        [deny] { $shape ->
               *[all] Never move or rename files and folders
                [folder] Never move or rename files and folders in { $folder }
                [path] Never move or rename { $path }
                [matching] Never move or rename files and folders matching “{ $pattern }”
        }
       *[ask] { $shape ->
               *[all] Ask before moving or renaming files and folders
                [folder] Ask before moving or renaming files and folders in { $folder }
                [path] Ask before moving or renaming { $path }
                [matching] Ask before moving or renaming files and folders matching “{ $pattern }”
        }
        [allow] { $shape ->
               *[all] Always allow moving or renaming files and folders
                [folder] Always allow moving or renaming files and folders in { $folder }
                [path] Always allow moving or renaming { $path }
                [matching] Always allow moving or renaming files and folders matching “{ $pattern }”
        }
    }
rule-delete_path = { $kind ->
        [deny] { $shape ->
               *[all] Never delete files and folders
                [folder] Never delete files and folders in { $folder }
                [path] Never delete { $path }
                [matching] Never delete files and folders matching “{ $pattern }”
        }
       *[ask] { $shape ->
               *[all] Ask before deleting files and folders
                [folder] Ask before deleting files and folders in { $folder }
                [path] Ask before deleting { $path }
                [matching] Ask before deleting files and folders matching “{ $pattern }”
        }
        [allow] { $shape ->
               *[all] Always allow deleting files and folders
                [folder] Always allow deleting files and folders in { $folder }
                [path] Always allow deleting { $path }
                [matching] Always allow deleting files and folders matching “{ $pattern }”
        }
    }
rule-run_command = { $kind ->
        [deny] { $shape ->
               *[all] Never run commands
                [folder] Never run commands that touch { $folder }
                [command] Never run the command “{ $words }”
                [command_more] Never run the command “{ $words }” (with anything after it)
                [matching] Never run commands matching “{ $pattern }”
        }
       *[ask] { $shape ->
               *[all] Ask before running commands
                [folder] Ask before running commands that touch { $folder }
                [command] Ask before running the command “{ $words }”
                [command_more] Ask before running the command “{ $words }” (with anything after it)
                [matching] Ask before running commands matching “{ $pattern }”
        }
        [allow] { $shape ->
               *[all] Always allow running commands
                [folder] Always allow running commands that touch { $folder }
                [command] Always allow running the command “{ $words }”
                [command_more] Always allow running the command “{ $words }” (with anything after it)
                [matching] Always allow running commands matching “{ $pattern }”
        }
    }
rule-fetch_url = { $kind ->
        [deny] { $shape ->
               *[all] Never download from the internet
                [site] Never download from { $host }
                [site_sub] Never download from { $host } and its sub-domains
                [matching] Never download from addresses matching “{ $pattern }”
        }
       *[ask] { $shape ->
               *[all] Ask before downloading from the internet
                [site] Ask before downloading from { $host }
                [site_sub] Ask before downloading from { $host } and its sub-domains
                [matching] Ask before downloading from addresses matching “{ $pattern }”
        }
        [allow] { $shape ->
               *[all] Always allow downloading from the internet
                [site] Always allow downloading from { $host }
                [site_sub] Always allow downloading from { $host } and its sub-domains
                [matching] Always allow downloading from addresses matching “{ $pattern }”
        }
    }
rule-mcp_tool = { $kind ->
        [deny] { $shape ->
               *[all] Never use the tool “{ $tool }” of the MCP server “{ $server }”
                [folder] Never use the tool “{ $tool }” of the MCP server “{ $server }” on anything in { $folder }
                [matching] Never use the tool “{ $tool }” of the MCP server “{ $server }” on anything matching “{ $pattern }”
        }
       *[ask] { $shape ->
               *[all] Ask before using the tool “{ $tool }” of the MCP server “{ $server }”
                [folder] Ask before using the tool “{ $tool }” of the MCP server “{ $server }” on anything in { $folder }
                [matching] Ask before using the tool “{ $tool }” of the MCP server “{ $server }” on anything matching “{ $pattern }”
        }
        [allow] { $shape ->
               *[all] Always allow using the tool “{ $tool }” of the MCP server “{ $server }”
                [folder] Always allow using the tool “{ $tool }” of the MCP server “{ $server }” on anything in { $folder }
                [matching] Always allow using the tool “{ $tool }” of the MCP server “{ $server }” on anything matching “{ $pattern }”
        }
    }
rule-other_tool = { $kind ->
        [deny] { $shape ->
               *[all] Never use the tool “{ $tool }”
                [folder] Never use the tool “{ $tool }” on anything in { $folder }
                [matching] Never use the tool “{ $tool }” on anything matching “{ $pattern }”
        }
       *[ask] { $shape ->
               *[all] Ask before using the tool “{ $tool }”
                [folder] Ask before using the tool “{ $tool }” on anything in { $folder }
                [matching] Ask before using the tool “{ $tool }” on anything matching “{ $pattern }”
        }
        [allow] { $shape ->
               *[all] Always allow using the tool “{ $tool }”
                [folder] Always allow using the tool “{ $tool }” on anything in { $folder }
                [matching] Always allow using the tool “{ $tool }” on anything matching “{ $pattern }”
        }
    }
rule-anything = { $kind ->
        [deny] { $shape ->
               *[all] Never do anything (every action is refused)
                [folder] Never touch anything in { $folder }
                [path] Never touch { $path }
                [matching] Never touch anything matching “{ $pattern }”
        }
       *[ask] { $shape ->
               *[all] Ask before anything
                [folder] Ask before anything in { $folder }
                [path] Ask before anything on { $path }
                [matching] Ask before anything matching “{ $pattern }”
        }
        [allow] { $shape ->
               *[all] Always allow everything, without asking
                [folder] Always allow anything in { $folder }
                [path] Always allow anything on { $path }
                [matching] Always allow anything matching “{ $pattern }”
        }
    }

## The "what" choices of the "Add a rule" form (src-tauri/core/src/policy/words.rs).

rule-action-anything = Anything
rule-action-read_file = Reading files
rule-action-list_directory = Listing what is in folders
rule-action-write_file = Writing files (new or replaced)
rule-action-edit_file = Changing parts of files
rule-action-move_path = Moving or renaming files and folders
rule-action-delete_path = Deleting files and folders
rule-action-run_command = Running commands
rule-action-fetch_url = Downloading from the internet
rule-action-mcp_tool = The tool “{ $tool }” of the MCP server “{ $server }”
rule-action-other_tool = The tool “{ $tool }”

## When a rule from Settings → Rules is refused (src-tauri/core/src/app/rules_screen.rs, RuleEditError).

rule_edit-file = The rules file could not be changed, so nothing was changed. Fix the file by hand (or delete it to start again), or make sure Ask First may write to its data folder, then try again.
rule_edit-unknown_action = Ask First has no action “{ $name }” to make a rule about. Choose one from the list.
rule_edit-scope_not_for_action = This kind of place cannot be chosen for { $name }. Choose another one from the list.
rule_edit-allow_by_folder = { $name } cannot be allowed by folder, because Ask First cannot be sure where they act. Choose “Always ask” or “Never”, or allow them everywhere.
rule_edit-folder_missing = Choose a folder, or choose “Everywhere”.
rule_edit-folder_not_inside = Write the folder as it is inside your folder, like Private or Photos/2024 (without “..”).
rule_edit-folder_pattern = A folder name with pattern characters (such as * or ?) cannot be used here. Write such a rule by hand in the rules file instead.
rule_edit-folder_not_found = There is no folder “{ $name }” in your folder. Check its name, or choose one from the list.
rule_edit-not_a_folder = The name “{ $name }” is a file, not a folder. Choose a folder instead.
rule_edit-command_missing = Type the command's first words, for example “git status”.
rule_edit-command_pattern = Type the command's words as they are, without pattern characters (such as * or ?) or quotes. Write such a rule by hand in the rules file instead.
rule_edit-site_invalid = The name “{ $name }” is not a web site. Type one like example.com.
rule_edit-site_missing = Type the web site's name, for example “example.com”.
rule_edit-already_there = You already have this rule: { $name }. Use its Change button to make it different.
rule_edit-no_such_rule = This rule is no longer in the rules file (it may have been changed there). The list now shows the file as it is: look at it and try again.

## When an MCP server's settings cannot be saved (src-tauri/core/src/mcp/config.rs, McpConfigError).

mcp_config-name_length = Give the server a name of 1 to { $limit } characters.
mcp_config-name_characters = A server name may use only letters (without accents), digits, "-" and "_" (it becomes part of its tools' names).
mcp_config-no_longer_saved = There is no MCP server named "{ $name }" any more.
mcp_config-no_such_server = There is no MCP server named "{ $name }".
mcp_config-name_taken = Another MCP server is already named "{ $name }"; names may not differ only in capitals.
mcp_config-unclosed_quote = The command has a quote that is not closed.
mcp_config-no_program = Say which program starts the server (for example: npx -y @modelcontextprotocol/server-filesystem ~/Documents).
mcp_config-variable_name = "{ $name }" cannot be an environment variable's name: use letters, digits and "_", not starting with a digit.
mcp_config-variable_value = Give the variable { $name } a value.
mcp_config-variable_twice = The variable { $name } is listed twice.

## The state of an MCP server in Settings → MCP servers (src-tauri/core/src/mcp/server.rs and stderr.rs).
# { $trouble } is one of the mcp-trouble-* phrases; { $said } is mcp-it_said or nothing.

mcp-call = Use "{ $tool }" from the MCP server "{ $server }"
mcp-call-titled = Use "{ $tool }" from the MCP server "{ $server }" (the server calls it "{ $title }")
mcp-start_failed = The MCP server "{ $server }" could not be started: { $trouble }.{ $said } Check its command in the settings; it will be tried again the next time it is needed, after { $retry }.
mcp-trouble-slow = it did not finish starting within { $wait }
mcp-trouble-not_found = the program "{ $program }" was not found
mcp-trouble-cannot_run = the program "{ $program }" could not be run
mcp-trouble-stopped_early = it stopped before it was ready
mcp-trouble-not_mcp = it did not answer as an MCP server should
mcp-trouble-no_tools = it could not list its tools
# What the server wrote last, as it wrote it. Starts with a space in English: {" "}.
mcp-it_said = {" "}It said: "{ $text }".
mcp-stopped = The MCP server "{ $server }" stopped.{ $said } It will be started again the next time one of its tools is needed.
mcp-stopped_during_call = The MCP server "{ $server }" stopped while "{ $tool }" was running, so whether it did anything is unknown. It will be started again the next time one of its tools is needed.
mcp-call_timed_out = The MCP server "{ $server }" did not answer within { $wait }, so it was stopped; whether "{ $tool }" did anything is unknown. It will be started again the next time one of its tools is needed.
mcp-retired = The MCP server "{ $server }" was removed or changed in the settings, so it was not used.
# $failure: the mcp-start_failed sentence of the last try; $wait: a duration (duration-seconds).
mcp-not_tried_again = { $failure } (Not tried again yet: the next try is in { $wait }.)
# $said: the server's own words, as it wrote them.
mcp-refused = The MCP server "{ $server }" refused to run "{ $tool }": { $said }
# $why: the MCP library's own words.
mcp-bad_answer = The MCP server "{ $server }" did not answer properly when "{ $tool }" was used ({ $why }).
mcp-tool_error = The tool "{ $tool }" of the MCP server "{ $server }" reported an error: { $said }
mcp-problem-no_name = An MCP server in the settings has no name; give it one to use it.
mcp-problem-no_command = The MCP server "{ $server }" has no command in the settings, so it cannot be started. Give it one in Settings (Edit).
mcp-problem-same_name = Another MCP server in the settings has the same name as "{ $server }" (or one that differs only in punctuation); give each its own name.
mcp-status-next_task = Starts with the next task.
mcp-status-when_needed = Starts when a task needs it.
mcp-status-starting = Starting…
mcp-status-running = { $count ->
    [0] Running, with no tools.
    [one] Running, { $count } tool.
   *[other] Running, { $count } tools.
}

## Where the key of a model service is kept, on the settings screen (src-tauri/core/src/app/secrets.rs).

key_place-keyring = Your key is kept in the desktop's keyring.
key_place-file_no_keyring = No keyring is available on this computer, so your key is kept in Ask First's settings file, readable only by you.
key_place-file_keyring_refused = Your key is kept in Ask First's settings file, readable only by you: the desktop's keyring did not take it.
key_place-none_keyring = A key you save here is kept in the desktop's keyring.
key_place-none_no_keyring = No keyring is available on this computer, so a key you save here is kept in Ask First's settings file, readable only by you.
key_place-keyring_silent = The desktop's keyring did not answer, so Ask First cannot tell whether your key is saved there.
key_place-environment = Your key comes from the environment variable { $name }, which wins over the settings.

## Why the policy refused an action without asking (src-tauri/core/src/policy/, command_line/hard.rs).
## Shown to the person inside not_run-denied_by_rule_with_reason / not_run-hard_denial; the
## model is always told the English.
refusal-own_files = The agent may not read or change Ask First's own files (settings, rules, session logs).
refusal-too_many_texts = This action names more texts (or longer ones) than Ask First can check for paths it may not touch, so it is not done. Ask for it in smaller parts.
# $path: the path as the agent wrote it.
refusal-outside_workspace = { $path } is outside the workspace folder.
refusal-dont_ask_now = You chose not to be asked in this conversation, so actions that need your OK are not done.
# $rule: the rule as a sentence (rule-…), in the same language.
refusal-rule_forbids = Your rule “{ $rule }” forbids this.
# Why an action could not be asked about or approved (src-tauri/core/src/approvals.rs), shown
# inside not_run-unavailable_with_reason; the model is told the English.
refusal-answer_not_saved = your answer could not be saved in Ask First's history, perhaps because the disk is full, so to be safe nothing was run
refusal-question_not_saved = the question could not be saved in Ask First's history, perhaps because the disk is full, so you were not asked
# $summary: what the action would have done (a card's summary).
refusal-nobody_to_answer = nobody is here to give an OK for “{ $summary }”
refusal-command-stops = This command would shut down or restart the computer.
refusal-command-wipes = This command could wipe a disk or the whole system.
refusal-command-device = This command would write straight onto a disk, which can destroy everything on it.
refusal-command-deletes_outside = This command would delete a whole folder outside your workspace folder for good (an absolute path, your home folder, or a path with `..`).
refusal-command-deletes_unknown = This command would delete a whole folder whose name is only known when it runs (it comes from a variable), so it could be outside your workspace folder.
refusal-command-everything_permissions = This command would change the permissions or owner of every file on the computer or in your home folder.
refusal-command-kills_all = This command would stop every program you are running, Ask First too.
refusal-command-too_deep = This command nests shells too deeply to be checked.
refusal-command-fork_bomb = This command is a fork bomb: it would make the computer unusable.
# $name: a path in the folder; $rule: the rule's sentence.
refusal-command_change = When it was tried on a copy of your folder, this command would { $change ->
    [created] create
    [deleted] delete
   *[other] change
} { $name }, which your rule “{ $rule }” forbids, so nothing it did was put into your folder.

## Why a tool failed, as the person is told it (src-tauri/core/src/tools/: ToolError::for_person);
## the model is told the English of the tool's own message.
# $tool: the tool's name as the agent wrote it.
tool_failed-invalid_arguments = The agent's request to use { $tool } was not valid, so nothing was done.
tool_failed-no_such_tool = The agent asked for a tool named "{ $tool }", which Ask First does not have, so nothing was done.
# $why: the MCP server's state (an mcp-* sentence).
tool_failed-server_down = The tool "{ $tool }" cannot be used now. { $why }
# $path: the file or folder as the agent named it; $why: tool_failed-why-*, or the system's own words.
tool_failed-io-read = Could not read { $path }: { $why }.
tool_failed-io-write = Could not save { $path }: { $why }.
tool_failed-io-list = Could not list what is in { $path }: { $why }.
tool_failed-io-move = Could not move { $path }: { $why }.
tool_failed-io-create_folder = Could not make the folder for { $path }: { $why }.
tool_failed-why-permission = you do not have permission
tool_failed-why-not_found = it is not there
tool_failed-why-disk_full = the disk is full
tool_failed-why-read_only = the disk can only be read, not written
tool_failed-is_a_folder = { $name } is a folder, not a file.
tool_failed-no_such_file = The file { $name } does not exist.
tool_failed-not_text = { $name } is not a text file, so it cannot be edited.
tool_failed-edit_not_found = The text to replace is not in { $name }, so nothing was changed.
# $count: 2 or more.
tool_failed-edit_many = The text to replace is in { $name } { $count } times, so Ask First cannot tell which one to change; nothing was changed.
tool_failed-command-exit_code = The command failed (exit code { $code }).
tool_failed-command-signal = The command was ended by signal { $signal }.
tool_failed-command-no_code = The command ended without an exit code.
# $wait: a duration (duration-seconds).
tool_failed-command-too_long = The command was stopped after { $wait } because it was still running, and so was everything it started.
tool_failed-command-left_running = It left programs running in the background; they were stopped.
# $size: a size (8 GB); $count: a number of files.
tool_failed-command-wrote_too_much = The command was stopped: on the copy of your folder it wrote more than a command may write (more than { $size } or { $count } files, or it was filling the disk). Nothing it did was put into your folder.
# Followed on the next lines by what the command printed, exactly as it printed it.
tool_failed-command-printed = What it printed:
tool_failed-command-printed_nothing = It printed nothing.
tool_failed-not_there = { $name } does not exist.
tool_failed-already_there = { $name } already exists, so it was not replaced.
tool_failed-move_workspace = Your workspace folder itself cannot be moved.
tool_failed-trash_workspace = Your workspace folder itself cannot be moved to the trash.
# $why: the system's own words.
tool_failed-trash_failed = { $name } could not be moved to the trash ({ $why }), so it was left where it is. Ask First never deletes anything for good.
# $why: the system's own words.
tool_failed-command-unsupported = Running commands is not possible on this system yet.
tool_failed-command-not_started = The command could not be started ({ $why }).
# $command: the command line; $count: how many changes it made on the copy (1 or more).
card-command-tried = Apply to your folder what the command `{ $command }` did on a copy of it: { $count ->
    [one] 1 change
   *[other] { $count } changes
}
card-command-tried-reason = Nothing in your folder has changed yet: the command ran on a copy of it, without the internet.
card-command-tried-apply = Approve puts exactly the changes listed below into your folder (the command is not run again); you can undo them from Activity. Deny throws them away.
card-command-tried-grant_scope = While this conversation is open, this same command may make these changes again without asking: the same files, changed in the same ways. Anything more (another file, another kind of change, or a script it runs edited since) still asks. It ends when you start or open another conversation, or close Ask First.
# $command: the command line.
card-command-tried-granted = The command `{ $command }`, making the same changes as the one you allowed
tried-ended_ok = It finished without an error.
# $why: the technical reason.
tried-unreadable = The command was tried on a copy of your folder, but Ask First could not read what it changed ({ $why }), so nothing was applied.
# $why: the technical reason.
tried-no_copy = The command was not run: Ask First could not make a copy of your folder to try it on ({ $why }).
# $name: a file's path in the folder.
tried-conflict = Nothing was applied: { $name } changed in your folder after the command was tried, and applying would have overwritten that. Ask again to try the command on the folder as it is now.
# $why: the technical reason.
tried-apply_failed = The command's changes could not be put into your folder ({ $why }), so none of them were applied.
tool_failed-command-lost = Ask First lost track of the command ({ $why }), so everything it started was stopped.
# $cap: a number (1000).
tool_failed-command-too_many_kept = The command was not run: your rules keep more than { $cap } files and folders in your folder away from commands, too many to hide from it. A rule that names a folder keeps everything in it with one.
# $entries: a number (50000); $depth: a number (32).
tool_failed-command-folder_too_big = The command was not run: your folder is too big to find everything your rules keep away from commands (more than { $entries } files, or folders { $depth } levels deep). Choose a smaller folder for this task, or make the rule name a folder.
# $name: a folder's full path.
tool_failed-command-unreadable = The command was not run: Ask First cannot look into { $name } to find what your rules keep from commands, because its permissions were changed. Make the folder readable for you again, then try again.
tool_failed-edit_too_large = { $name } is too large to edit: the limit is { $limit } MB.
tool_failed-interrupted-read = Reading { $name } stopped unexpectedly, so it was not read.
tool_failed-interrupted-edit = The edit of { $name } stopped unexpectedly, so nothing was changed.
tool_failed-interrupted-trash = Moving { $name } to the trash stopped unexpectedly. Look in the trash to see whether it is there.
tool_failed-no_name = "{ $path }" does not name a file or folder.
# $kind: one of the special_kind-* words.
tool_failed-special = { $name } is not an ordinary file (it is { $kind }), so Ask First does not open it.
tool_failed-why-special = it is not an ordinary file (it is { $kind }), so Ask First does not open it
special_kind-pipe = a named pipe
special_kind-device = a device
special_kind-socket = a socket
special_kind-folder = a folder
# $url, $from, $to: web addresses; $host: a name in one; $ip: the address it leads to.
# $shown, $actual, $place: where an address is, one of the place-* words.
place-this_computer = an address on this computer
place-local_network = an address on your local network
place-internet = an address on the internet
tool_failed-fetch-no_address = Could not read { $url }: no address was found for { $host }.
tool_failed-fetch-leads_elsewhere = Ask First did not connect: { $url } was shown to you as { $shown }, but the name { $host } leads to { $ip }, { $actual }.
tool_failed-fetch-redirect_not_web = { $from } sends the request on to { $to }, which is not a web address, so Ask First did not go there.
tool_failed-fetch-redirect_elsewhere = { $from } sends the request on to { $to } ({ $place }), which is not the address you approved, so Ask First did not go there. If the agent asks for that address, you get a card for it.
tool_failed-fetch-redirect_elsewhere_unencrypted = { $from } sends the request on to { $to } ({ $place }), which is not the address you approved and is not encrypted, so Ask First did not go there. If the agent asks for that address, you get a card for it.
# $why: the system's or the network library's own words.
tool_failed-fetch-failed = Could not read { $url }: { $why }.
# $wait: a duration (duration-seconds).
tool_failed-fetch-no_answer = { $url } did not answer within { $wait }.
tool_failed-fetch-not_prepared = Ask First could not prepare the request to { $url }: { $why }.
# An answer with an error status, then what was not read (tool_failed-fetch-note-*), then what it holds.
# $status: the HTTP status code, such as 404.
tool_failed-fetch-error_status = { $url } answered with an error (HTTP status { $status }).
tool_failed-fetch-note-size_cap = Only the first { $limit } MB were read; the rest was not downloaded.
tool_failed-fetch-note-slow = The download took longer than { $wait }; only what arrived by then is shown.
tool_failed-fetch-note-broke_off = The download broke off ({ $why }); only what arrived is shown.
tool_failed-fetch-no_text = It sent no text.
tool_failed-fetch-not_text = It sent { $bytes ->
    [one] one byte that is not text, so it is
   *[other] { $bytes } bytes that are not text, so they are
} not shown.
tool_failed-fetch-sent = What it sent:

## The offline demo agent's words (src-tauri/core/src/scripted.rs): what it says, and the
## summary it offers to write into summary.txt (file names stay as they are).
# The demo folder's name on disk, given once when it is made (one folder name: no "/").
demo-folder-name = Demo folder
demo-say-hello = Hello! I'm the demo agent. I'll tidy up your demo folder. First, let me look at what is in it.
demo-say-summary = I'd like to write a short summary of these files into a new file, summary.txt.
demo-say-archive = old-report.txt is out of date, so I suggest moving it into an Archive folder.
demo-say-done = That's everything I had planned. Each change waited for your answer; the list above shows what was done and what was not.
demo-summary =
    Summary of your folder
    - shopping-list.txt: five things to buy (milk, eggs, bread, tomatoes, coffee).
    - meeting-notes.txt: the budget review moved to Thursday; holiday plans are due Friday.
    - old-report.txt: last year's draft report, out of date.

## Another agent hosted in Ask First (ACP): { $agent } is its name ("Gemini CLI").
acp-not_started = { $agent } could not be started: { $why }. Check its command in Settings, under "Who does the work".
acp-version = { $agent } speaks another version of its protocol ({ $version }) than Ask First (1), so it cannot work here.
acp-gave_up = { $agent } ended its turn without finishing the task ({ $reason }).
acp-unknown_method = { $agent } asked Ask First for something it does not offer ({ $method }), so the task was stopped.
acp-too_long = { $agent } sent a message larger than Ask First takes ({ $limit } MB), so the task was stopped.
acp-not_json = { $agent } sent something that is not a message of its protocol, so the task was stopped.
acp-exited = { $agent } stopped in the middle of the task. What it said last is under "Details".
acp-hung = { $agent } did not say anything for { $seconds } seconds, so the task was stopped.
acp-flood = { $agent } sent more than { $count } messages for one task, so the task was stopped.
acp-sign_in = { $agent } needs you to sign in first. Open a terminal, run { $program } once and follow its steps to sign in, then try the task again. Ask First never sees your sign-in.
acp-refused = { $agent } did not take the task: { $why }
acp-card-summary = { $agent } wants to: { $title }
acp-card-reason = { $agent } asks for your permission before it does this itself.
acp-does = { $agent }: { $title }
acp-card-not_ours = Ask First knows only what { $agent } says about this here. If it writes a file in your folder through Ask First, that comes to you on its own card, with what changes.
acp-done_itself = { $agent } says this is done.
