# Ask First 的简体中文句子。每行是「键 = 句子」：只改「 = 」后面的文字。
# 每个 { $name }（文件名、数量等）都要保留在句子里，显示时会被填入。
# 英文原文在 locales/en/app.ftl。

## 操作为什么没有执行（告诉用户的说法）。

not_run-denied_by_person = 你拒绝了。这个操作没有执行。
not_run-denied_by_person_with_note = 你拒绝了，并留言：“{ $note }”。这个操作没有执行。
not_run-timed_out = 你没有及时回答，所以它没有执行。
not_run-denied_by_rule = 你的设置不允许这个操作。它没有执行。
not_run-denied_by_rule_with_reason = 你的设置不允许这个操作（{ $reason }）。它没有执行。
not_run-hard_denial = Ask First 从不允许这样做：{ $reason } 它没有执行。
not_run-unavailable = 这个操作无法得到批准，所以没有执行。
not_run-unavailable_with_reason = 这个操作无法得到批准（{ $reason }），所以没有执行。
not_run-cancelled-run_aborted = 你停止了这次任务；这个操作没有执行。
not_run-cancelled-app_shutdown = 应用已关闭；这个操作没有执行。
not_run-interrupted-run_aborted = 这个操作进行时你停止了任务；它在完成前被停下了。
not_run-interrupted-app_shutdown = 这个操作进行时应用被关闭了；它在完成前被停下了。
not_run-no_longer_awaited-run_aborted = 这个操作进行时你停止了任务。Ask First 不再等它结束，所以不知道它是否已完成。
not_run-no_longer_awaited-app_shutdown = 这个操作进行时应用被关闭了。Ask First 不再等它结束，所以不知道它是否已完成。
not_run-changed_after_shown = 没有执行：在请你批准之后，文件或文件夹发生了变化（“{ $summary }”），它已不会按显示的那样去做。什么都没有改动；请按现在的样子重新询问。
not_run-run_ended_before = 在这个操作之前任务已被停止；它没有执行。
not_run-output_limit = 这次任务的操作已产生 { $limit_mb } MB 输出，这是 Ask First 在一次任务中传递的上限（{ $limit_mb } MB），所以任务到此结束；这个操作没有执行。
not_run-too_many_calls = 没有执行：助手一次要求做 { $asked } 个操作，而 Ask First 每次最多处理 { $limit } 个，所以其余 { $left_out } 个没有被查看、询问或执行。已经让它一次少要一些。
not_run-closed_before_start = 它已获允许，但 Ask First 在它开始前就被关闭了，所以没有执行。
not_run-may_have_run = 这个操作进行时 Ask First 停止了，所以它可能已经部分或全部完成。依赖它之前请先检查。
not_run-refused_end_not_saved = 这个操作没有执行。
not_run-end_not_saved = 没有保存它是怎样结束的（当时 Ask First 无法写入记录），所以不知道它是否已完成。

## 命令卡片上说明命令会做什么。

command-runs_downloaded = 运行从 { $hosts } 下载的脚本：Ask First 看不到这个脚本会做什么。
command-runs_downloaded_anywhere = 运行从互联网下载的脚本：Ask First 看不到这个脚本会做什么。
command-shell_features = 使用了命令行的特殊功能（变量、替换、文件名通配或重定向），所以 Ask First 无法在运行前看清它做的一切。
command-builds_commands = 在运行中临时拼出要运行的命令（{ $how }），所以 Ask First 无法知道它们会做什么。
command-unknown-confined = Ask First 不知道 { $programs } 会做什么。
command-unknown-unconfined = Ask First 不知道 { $programs } 会做什么。
command-leaves_folder = 先进入另一个文件夹（{ $to }），所以之后的名称可能在你的文件夹之外。
command-deletes_folder = 永久删除文件夹 { $name } 及其中的一切（不会进入回收站）。
command-deletes_file = 永久删除文件 { $name }（不会进入回收站）。
command-deletes_missing = 如果运行时存在 { $name }，就将其永久删除（现在没有这个名称的东西）。
command-deletes_pattern = 永久删除运行时 { $name } 所匹配的一切；Ask First 无法知道是哪些文件。
command-deletes_files = 永久删除 { $count } 个文件（不会进入回收站）：{ $names }
command-deletes_folders = 永久删除 { $count } 个文件夹及其中的一切（不会进入回收站）：{ $names }
command-deletes_mixed = 永久删除 { $count } 个文件和文件夹（不会进入回收站）：{ $names }
command-deletes_given = 永久删除前一个命令交给它的文件；Ask First 无法知道是哪些。
command-deletes_found = 永久删除它找到的每个文件（不会进入回收站）。
command-deletes_empty_folders = 删除空文件夹 { $names }
command-destroys = 彻底销毁 { $names } 的内容，无法恢复
command-writes = 替换或新建文件 { $name }
command-appends = 在文件 { $name } 末尾追加内容（没有就新建）
command-writes_files = 更改文件 { $names }
command-writes_outside-blocked = 写入你的文件夹之外（{ $name }）。它在隔离中运行，所以这一部分会失败。
command-writes_outside-thrown_away = 写入你的文件夹之外（{ $name }）。它在隔离中运行，在那里看到的是一个空的替身，结束时会被丢弃，所以那里什么都不会改变。
command-writes_outside-unconfined = 写入你的文件夹之外（{ $name }），而在这台电脑上没有什么能阻止它。
command-reads_outside = 读取你的文件夹之外的内容：{ $name }
command-reads_outside-hidden = 查看你的文件夹之外（{ $name }）；那里对它是隐藏的，所以它什么也找不到。
command-moves = 移动或重命名文件：{ $names }
command-copies = 复制文件，目标位置的同名文件会被替换：{ $names }
command-permissions = 更改 { $names } 的权限
command-owner = 更改 { $names } 的所有者
command-stops_programs = 停止正在运行的程序（{ $program }）
command-administrator = 以管理员权限运行（{ $program }）：它可能改动电脑上的任何东西。
command-downloads = 从 { $hosts } 下载（{ $program }）
command-downloads_anywhere = 从互联网下载（{ $program }）
command-sends = 向 { $hosts } 发送数据（{ $program }）
command-sends_anywhere = 向互联网或另一台电脑发送数据（{ $program }）
command-replaces_remote = 向互联网发送数据并替换那里的内容（git push --force）
command-discards_changes = 永久丢弃尚未提交的更改（{ $command }）
command-deletes_untracked = 永久删除 Git 没有跟踪的文件（git clean）
command-background-confined = 有一部分在后台运行；命令结束时，它启动的一切都会被停止。
command-background-unconfined = 有一部分在后台运行，命令结束后可能仍在运行。
command-background_program-confined = 在后台启动一个程序（{ $program }）；命令结束时，它启动的一切都会被停止。
command-background_program-unconfined = 在后台启动一个程序（{ $program }），命令结束后它可能仍在运行。
command-keeps_running = 一直运行，直到你按“停止”或超过时间限制（{ $program }）
command-runs_script = 运行脚本 { $script }，Ask First 看不到它的步骤。
command-runs_input = 运行 { $program } 从输入中读到的命令（例如前一个命令的输出），Ask First 无法事先看到。
command-runs_code = 运行命令行里给出的 { $language } 代码，Ask First 看不到它的步骤。
command-runs_build = 运行项目的构建步骤（{ $command }），Ask First 看不到这些步骤。
command-runs_program = 运行你的文件夹里的程序 { $path }，Ask First 看不到它的步骤。
command-installs_packages = 从互联网下载并安装软件包（{ $command }），它们可能运行自己的安装脚本，Ask First 看不到这些步骤。
command-runs_package = 下载并运行一个软件包（{ $command }），Ask First 看不到它的步骤。
command-runs_project_script = 运行项目的脚本 { $script }（{ $command }），Ask First 看不到它的步骤。
command-installs_software = 从互联网下载并安装软件（{ $command }）
command-containers = 从互联网下载并运行容器（{ $command }）
list-join = { $first }、{ $rest }
list-pair = { $first } 和 { $second }
list-and_more = { $names }，另有 { $count } 项
command-more = ……还有 { $count } 项。

## 命令是否在隔离中运行：它的卡片上的第一行。

confinement-shut_in = 它在隔离中运行：只能改动你的工作文件夹里的文件，看不到你主文件夹的其余部分和 Ask First 自己的文件，它启动的一切都会在它结束时被停止。它可以使用互联网。
confinement-not_shut_in = 在这台电脑上它没有被隔离：它可以读取和改动你的任何文件，包括 Ask First 自己的文件，它在后台启动的程序可能会一直运行下去。只有在你信任这个命令时才批准它。
confinement-no_copy = 在这台电脑上，Ask First 无法先在你的文件夹副本上试运行它：它会直接在你的文件夹中运行，所以无法事先向你展示它的更改，也无法撤销。
# $rules: the rules' sentences, as Settings lists them, joined by "; ".
confinement-kept = 你的规则保护的内容对它隐藏：{ $rules }。
# $rules: as above; $more: how many further rules keep places too (1 or more).
confinement-kept_more = 你的规则保护的内容对它隐藏：{ $rules }；另外还有 { $more } 条。
# $rules: the sentences of rules about changing files, as above.
confinement-read_only = 无论它尝试做什么，都不能改动、移动或删除这些规则保护的内容（可以读取）：{ $rules }。
# $rules: as above; $more: how many further such rules (1 or more).
confinement-read_only_more = 无论它尝试做什么，都不能改动、移动或删除这些规则保护的内容（可以读取）：{ $rules }；另外还有 { $more } 条。

## 窗口中显示的错误：说明发生了什么、该怎么做。

error-run-empty_task = 请先为助手输入一个任务。
error-run-busy = 助手还在处理上一个任务。请停止它，或等它完成。
acp-no_command = 请输入启动该智能体的命令（例如：gemini --acp）。
error-run-folder_gone = 这个对话所用的文件夹 { $path } 已经不在了。请用任务框上方的“更改…”为它选择一个文件夹。
error-internal = Ask First 内部出了问题，所以这件事没有完成。请再试一次；如果一直这样，请关闭 Ask First 再重新打开。
error-session-busy = 助手还在工作。请先让它停下，或等它做完。
error-session-folder_fixed = 文件夹是在 Ask First 启动时由 ASKFIRST_WORKSPACE 设定的，所以不能在这里更改。要选择文件夹，请不带它启动 Ask First。
error-session-unreadable = 无法打开这个对话，因为读不到它的记录（可能已被移动或删除）。请选择另一个对话，或开始一个新对话。
error-session-not_writable = Ask First 无法写入这个对话的记录，所以没有打开它。请腾出一些磁盘空间，或确认 Ask First 可以写入它的数据文件夹，然后再试一次。
error-history-unreadable = Ask First 无法读回这个对话到目前为止发生的事情，所以窗口无法完整显示它。请从以前的对话列表中重新打开这个对话；它在磁盘上的记录是完整的。
error-approval-not_pending = 这个请求已不在等待：它已被回答、已超时，或它的任务已被停止。什么都没有改动；请查看仍在显示的请求。
error-approval-not_grantable = 这个操作不能设为不再询问。请只批准这一次，或拒绝它。
error-approval-required = “{ $summary }”需要有人同意，但这里没有人能回答。请在 Ask First 窗口中运行这个任务来回答。
error-approval-log = Ask First 现在无法保存记录，所以没有执行。请腾出一些磁盘空间，或确认 Ask First 可以写入它的数据文件夹，然后再试一次。
error-approval-shutting_down = Ask First 正在关闭，所以没有询问任何人，操作也没有执行。请重新打开 Ask First 继续。
error-approval-change-not_offered = 此请求无法在这里修改。请批准或拒绝；拒绝时附上说明，可以告诉助手改做什么。
error-approval-change-too_big = 您输入的内容对一个操作来说太长了。请缩短，或拒绝此请求并告诉助手改做什么。
error-approval-change-same = 没有任何修改。请先修改文字，或按“取消”让请求保持原样。
error-settings-unknown_provider = Ask First 不认识这个模型服务。请在“设置”的列表中选择一个。
error-settings-timeout_out_of_range = 等待时间必须在 { $min } 到 { $max } 秒之间。请在这个范围内选择等待时间，然后再保存。
error-settings-file_unreadable = 你的设置文件无法读取或有错误，所以“设置”不会覆盖它。请修正或删除这个文件，然后再试一次。
error-settings-save_failed = 你的设置没能保存。请确认磁盘没有满，并且 Ask First 可以写入它的数据文件夹，然后再试一次。
error-settings-no_such_rule = 这条规则已不在你的规则中（规则文件可能被改过）。请关闭“设置”再打开，查看现在的规则。
error-settings-rules_unreadable = 无法读取你的规则，所以什么都没有改动。请确认 Ask First 可以读写它的数据文件夹，然后再试一次。
error-settings-rules_invalid = 你的规则文件有错误，所以什么都没有改动。请修正这个文件（或删除它重新开始），然后再试一次。
error-settings-mcp_server = { $problem } 请检查这个服务器的设置，然后再试一次。
error-settings-keyring_remove = 无法从桌面的钥匙环中删除这个密钥（其余设置已保存）。请再试一次，或用桌面的密码应用删除它，它列在“Ask First”下。
error-startup-already_running = Ask First 已经在运行。请使用它的窗口（可能在托盘里，或在最小化的窗口中）。
error-startup-no_data_dir = Ask First 不知道在这个系统上把设置放在哪里。请把 ASKFIRST_DATA_DIR 设为它可以使用的文件夹，然后重新打开它。
error-startup-bad_setting = 启动 Ask First 时使用的某个 ASKFIRST_ 设置无法使用。请改正或去掉它（详情中写明了是哪一个），然后重新打开 Ask First。
error-startup-folder = Ask First 无法使用它的某个文件夹：可能不允许写入，或磁盘已满。请确认它可以写入它的数据文件夹和你的文件夹，然后重新打开它。
error-startup-window = Ask First 无法打开窗口。请从你的桌面启动它（它需要图形界面），然后再试一次。

## 通知。

start_at_login-failed = Ask First 无法更改登录时是否启动。没有做任何更改。
notify-title = Ask First 需要你的同意
notify-open = 打开
notify-deny = 拒绝
notify-approve = 批准这一次
notify-folder = 文件夹：{ $folder }
notify-folder-demo = 文件夹：演示文件夹（示例文件）
notify-many = 有 { $count } 个操作在等待
notify-still_running-title = Ask First 仍在运行
notify-still_running-body = Ask First 会在后台继续工作，需要你同意时会在这里询问。可以从托盘图标打开它，或重新启动它；从托盘菜单退出。

## 托盘图标的菜单和提示。

tray-pending = { $count ->
    [0] 没有等待批准的请求
   *[other] { $count } 个请求等待批准
}
tray-more = ……窗口中还有 { $count } 个
tray-review = 查看：{ $label }
tray-show = 显示 Ask First
tray-quit = 退出
tray-tooltip = { $count ->
    [0] Ask First
   *[other] Ask First — { $count } 个请求等待你的同意
}

## 对话中显示的任务结束方式。

run-broke = Ask First 内部出了问题，这个任务已停止。它不会再做任何事；你可以开始一个新任务。
run-closed_while_working = 助手工作时 Ask First 被关闭了。
run-you_stopped = 你停止了助手。
run-unrecorded = 这个任务有一部分没能保存（磁盘已满或无法写入），所以不知道它是怎样结束的。
run-stopped_after_finishing = { $why } 已经在做的事情已经做完，因为中途停下可能会让它只做了一半：{ $summary }。
run-output_limit = 助手已停止：它在这次任务中的操作产生了超过 { $limit_mb } MB 的输出，这是 Ask First 一次任务允许的上限。发送新消息即可继续。
not_run-folder_gone = 没有执行：你的文件夹 { $folder } 已经不在了。
run-folder_gone = 你的文件夹 { $folder } 已经不在了（被移动或删除），所以任务已停止。请选择另一个文件夹再继续。
run-out_of_steps = 助手做了 { $max_steps } 步仍未完成，已停止。发送新消息让它继续，或给它一个小一些的任务。
run-kept_asking = 助手一再要求做已被拒绝的事情（“{ $summary }”），所以被停止了。发送新消息告诉它改做什么。

## 批准卡片上。

# “在这个对话中允许”的确切含义：说清楚何时结束。
card-grant_scope = 在这个对话打开期间，完全相同的操作（同一个工具、同样的细节）再次出现时会直接执行、不再询问，前提是它要处理的内容和这里显示的一样，或是这个操作执行后的样子。任何不同之处仍会询问。当你开始或打开另一个对话，或关闭 Ask First 时，这个允许就结束了。
card-too_many_summary = 助手一次要求做 { $asked } 个操作；前 { $limit } 个之后的 { $left_out } 个没有执行
card-use_the_tool = 使用额外工具（{ $name }）
card-use-read_file = 读取文件
card-use-list_directory = 查看文件夹
card-use-write_file = 写入文件
card-use-edit_file = 修改文件
card-use-move_path = 移动或重命名文件或文件夹
card-use-delete_path = 删除文件或文件夹
card-use-run_command = 运行命令
card-use-fetch_url = 打开网页

## 选择文件夹。

folder-picker_title = 选择助手可以工作的文件夹

## Ask First 无法启动时。

startup-failed = Ask First 无法启动。{ $message }
startup-details = 详情：{ $detail }

## 批准卡片上说明内置工具要做什么。

card-write-create = 新建文件 { $name }（{ $lines } 行）
card-write-replace = 用新文字替换 { $name } 的全部内容（{ $lines } 行）
card-read = 读取文件 { $name }
card-list-workspace = 查看你的工作文件夹里的文件列表
card-list-folder = 查看文件夹 { $name } 里的文件列表
card-delete-file = 把 { $name } 移到回收站（可以恢复）
card-delete-folder = 把文件夹 { $name } 移到回收站，{ $count ->
    [0] 它是空的
   *[other] 里面有 { $count } 项
}（可以恢复）
card-delete-big_folder = 把文件夹 { $name } 移到回收站，里面有超过 { $count } 项（可以恢复）
card-delete-shortcut = 把快捷方式 { $name } 移到回收站；{ $target } 本身保留（可以恢复）
card-move = 把 { $from } 移到 { $to }
card-move-folder = 把文件夹 { $from } 移到 { $to }
card-command = 在你的工作文件夹中运行命令 `{ $command }`
card-command-with_limit = 在你的工作文件夹中运行命令 `{ $command }`（运行超过 { $seconds } 秒就停止）
card-edit-replace = 替换 { $name } 中的 { $removed } 行
card-edit-remove = 从 { $name } 中删除 { $removed } 行
card-edit-add = 向 { $name } 添加 { $added } 行
card-edit-replace_with = 把 { $name } 中的 { $removed } 行替换为 { $added } 行
card-fetch-this_computer = 读取网页 { $url }（这台电脑上的地址）
card-fetch-this_computer-risk = 这个地址在这台电脑上，不在互联网上：它连到这里运行的一个程序，那个程序可能交出私人信息，或按请求去做事。
card-fetch-local_network = 读取网页 { $url }（你的局域网中的地址）
card-fetch-local_network-risk = 这个地址在你的局域网中，不在互联网上：可能是路由器、打印机，或家里、公司里的另一台电脑。
card-fetch-cloud_metadata-risk = 在云服务器上，这个地址会交出服务器自己的设置和访问密钥。
card-fetch-internet = 读取网页 { $url }（会连到互联网）
card-fetch-credentials-risk = 这个地址里含有用户名或密码，会一起发送出去。
card-fetch-redirects = 如果网站把请求转到另一个地址，Ask First 不会跟过去：会就那个地址再问你一次。

## 对话中显示的回答者名称（“回答者：…”）。

provider-name-model_at_host = { $host } 上的 { $model }
provider-name-demo = 演示助手（离线，按固定脚本进行）
provider-name-scenario = 固定脚本（{ $path }）
# The choices of who answers, in the welcome and Settings (src-tauri/core/src/app/catalog.rs).
provider-choice-demo = 演示（没有 AI，用来试用 Ask First）
provider-choice-openai = 需要密钥的服务：OpenAI 或兼容的地址
provider-choice-ollama = 这台电脑上的模型（Ollama）
provider-choice-anthropic = 需要密钥的服务：Anthropic（Claude）

## 模型服务出错时。

provider-script_exhausted = 脚本场景中已没有给第 { $step } 次模型调用的回合；它共有 { $turns } 个回合。请在场景文件中添加一个回合，或给助手一个小一些的任务。
provider-config = Ask First 无法通过你的设置文件判断该由哪个模型服务回答。请打开“设置”重新选择由谁回答，或修正、删除这个文件。
provider-missing_key = 请在设置中添加你在 { $host } 的 API 密钥（或使用 { $env_var }）。
provider-bad_scenario = 无法使用脚本模型的场景文件。请检查 ASKFIRST_PROVIDER 指定的文件（详情中写明了哪里有问题）。
provider-auth = { $host } 拒绝了这个 API 密钥。请检查设置中的密钥。
provider-model_not_found = 在 { $host } 找不到模型“{ $model }”。请检查设置中的模型名称。
provider-rate_limited = { $host } 的模型服务表示请求太多，试了 { $tries } 次仍被拒绝。请等一分钟再试，或检查套餐的限额。
provider-busy_too_long = { $host } 上的模型服务正忙，要求等待的时间超过了 Ask First 两次尝试之间会等待的时间（{ $limit } 秒），所以这个任务停止了。请过一会儿再试，或检查套餐的限额。
provider-server_error = { $host } 的模型服务出了问题（错误 { $status }），试了 { $tries } 次仍然失败。请稍后再试。
provider-context_too_long = 这段对话已经超过了 { $host } 的模型一次能读的长度，所以无法在这里继续。要继续，请点顶部的“对话”，再点“开始新对话”；这段对话仍保留在列表中。如果新对话也这样停下，说明这个模型一次能读的内容对这个任务来说太少：请在设置中换一个模型。
provider-over_plan_limit = 这段对话已经超过了你在 { $host } 的套餐一次请求所能接受的大小，所以无法在这里继续，等待也没有用。要继续，请点顶部的“对话”，再点“开始新对话”；这段对话仍保留在列表中。或者在该服务上提高套餐的限额。
provider-refused = { $host } 的模型服务拒绝了请求（错误 { $status }）。请检查设置中的地址和模型名称。
provider-service_error = { $host } 的模型服务在回答时出错停止了。请再试一次。
provider-malformed = { $host } 的模型服务发来了 Ask First 读不懂的回复。请再试一次；如果一直这样，请检查设置中的地址。
provider-ended_early = 来自 { $host } 的回复没有完整就中断了。请再试一次。
provider-idle_timeout = { $host } 的模型服务在 { $waited } 内没有发来任何内容，所以 Ask First 不再等待。请再试一次；仍在加载的模型可能需要一点时间。
provider-too_slow = { $host } 的模型服务过了 { $limit } 仍在回答，所以 Ask First 不再等待。请用小一些的任务再试。
provider-connect-refused = { $host } 没有回应。请检查模型服务是否在运行，以及设置中的地址是否正确。
provider-connect-name_not_found = 找不到地址 { $host }。请检查设置中的地址和网络连接。
provider-connect-tls = 无法与 { $host } 建立安全连接。请检查设置中的地址应以 http:// 还是 https:// 开头。
provider-connect-timed_out = 连接 { $host } 的时间太长。请检查网络连接和设置中的地址。
provider-connect-dropped = { $host } 的模型服务没有回答就关闭了连接。请稍后再试。
provider-connect-other = 无法连到 { $host } 的模型。请检查网络连接和设置中的地址。
provider-not_an_ai_service-web_page = 地址 { $host } 回应的是一个网页，而不是模型服务；可能被登录页面或网络认证挡住了。请检查设置中的地址。
provider-not_an_ai_service = 地址 { $host } 的回应不像模型服务。请检查设置中的地址。
provider-too_large-tool_calls = { $host } 的模型在一次回复中要求做超过 { $count } 个操作，超出了 Ask First 一次能接受的数量。请用小一些的任务再试。
provider-too_large-reply = 来自 { $host } 的回复超过 { $limit_mb } MB，超出了 Ask First 一次能从模型接受的大小。请用小一些的任务再试。
provider-too_large-piece = 来自 { $host } 的回复中有一段超过 { $limit_mb } MB，超出了 Ask First 一次能从模型接受的大小。请用小一些的任务再试。
duration-less_than_a_second = 不到一秒
duration-seconds = { $count } 秒
duration-minutes = { $count } 分钟

## 卡片为什么要询问，或操作为什么没有询问就执行了。

reason-granted = 已在这个对话中允许：你之前允许过完全相同的操作。
reason-mcp-reads = 只读取；MCP 服务器“{ $server }”这样说明，而你信任它。
reason-mcp-asks = 这会使用 MCP 服务器“{ $server }”，它可能改动东西或连到互联网，所以需要你的同意。
reason-reads = 只读取。
reason-reads-risky = 这只是读取，但被标为有风险，所以需要你的同意。
reason-changes = 这会改动你的工作文件夹里的文件，所以需要你的同意。
reason-high_risk = 这是一个高风险的操作，所以需要你的同意。
reason-rule-asks = 你的规则“{ $rule }”要求先问你。
reason-rule-allows = 你的规则“{ $rule }”允许这样做。
reason-rules_unreadable = 无法读取规则文件 { $path }：{ $detail } 在修好之前，Ask First 每次操作前都会先问你。
reason-rules_mistake = 规则文件 { $path } 有错误：{ $detail } 在修好之前，Ask First 每次操作前都会先问你。

## “设置”中的“测试连接”和 Ollama 查找。

probe-works = 连接正常：{ $host } 上的 { $model } 已回答。
probe-no_service_needed = 演示模式不需要连接：它按固定脚本回答，不使用 AI。
probe-bad_address = “{ $text }”不是网址。它应该像 https://api.example.com/v1 这样。
probe-missing_key = { $host } 需要 API 密钥。请把密钥粘贴到上面，然后再测试。
probe-key_refused = { $host } 拒绝了这个密钥。请检查是否复制了完整的密钥，以及它是否仍然有效。
probe-not_an_ai_service-web_page = { $host } 回应的是一个网页，所以它不是 AI 服务；可能被登录页面挡住了。请检查地址。
probe-not_an_ai_service = { $host } 有回应，但它不是 Ask First 能用的 AI 服务。请检查地址（兼容 OpenAI 的服务地址常以 /v1 结尾）。
probe-model_not_found = { $host } 没有名为“{ $model }”的模型，也没有说明它有哪些模型。请检查模型名称。
probe-model_not_found-choose = { $host } 没有名为“{ $model }”的模型。请从它有的模型中选一个：{ $models }。
probe-rate_limited = { $host } 表示现在请求太多。请等一分钟再测试。
probe-out_of_credit = { $host } 表示这个账户已没有余额或额度。请向这个服务查看套餐和账单。
probe-service_trouble = { $host } 那边出了问题（错误 { $status }）。请稍后再试。
probe-service_error = { $host } 在回答时出错停止了。请稍后再试。
probe-refused = { $host } 拒绝了测试（错误 { $status }）。请检查地址和模型名称。
probe-too_slow = { $host } 在 { $waited } 内没有回答，所以 Ask First 不再等待。仍在加载的本地模型可能需要再试一次。
probe-connect-refused = { $host } 没有回应。请检查地址，以及服务是否在运行。
probe-connect-name_not_found = 找不到地址 { $host }。请检查地址和网络连接。
probe-connect-tls = 无法与 { $host } 建立安全连接。请检查地址应以 http:// 还是 https:// 开头。
probe-connect-timed_out = { $host } 没有及时回应。请检查地址和网络连接。
probe-connect-dropped = { $host } 没有回答就关闭了连接。请稍后再试。
probe-connect-other = 无法连到 { $host }。请检查地址和网络连接。
probe-no_local_model = 这台电脑上没有运行本地模型。请安装 Ollama（ollama.com）并启动它，或选择另一种回答方式。
probe-ollama-no_models = Ollama 正在这台电脑上运行，但还没有模型。请用 Ollama 获取一个（例如：ollama pull llama3.1），或选择另一种回答方式。
probe-ollama-models = Ollama 正在运行，有 { $count } 个模型。请选择由哪一个回答。
probe-ollama-not_answering = { $host } 上的 Ollama 没有回应。请检查地址，或选择另一种回答方式。
probe-ollama-not_ollama = { $host } 有回应，但它不是 Ollama。请检查地址，或选择另一种回答方式。

## 所选文件夹无法使用时。

folder-unopenable = 无法打开文件夹 { $path }。请确认你有权打开它，或选择另一个文件夹。
folder-not_saved = 现在已在使用这个文件夹，但 Ask First 没能记住它供下次使用。请确认磁盘没有满，并且 Ask First 可以写入它的数据文件夹，然后再选择一次。
folder-missing = 文件夹 { $path } 不存在。请选择一个存在的文件夹。
folder-not_a_folder = 这是一个文件，不是文件夹：{ $path }。请选择一个文件夹。
folder-whole_computer = 这是整台电脑。请选择一个装着要让助手处理的文件的文件夹，例如“文档”。
folder-home_folder = 这是你的整个主文件夹，里面有你所有的文件。请在其中选一个文件夹（例如“文档”）让助手工作。
folder-own_data = 这个文件夹装着 Ask First 自己的文件（设置、密钥和记录），助手绝不能改动它们。请选择另一个文件夹。
folder-case_without_identity = 该文件夹所在的磁盘不区分大小写字母，而且 Ask First 无法核实哪些写法指的是同一个文件，所以无法在那里遵守你的规则。请把文件复制到这台电脑自己磁盘上的文件夹，或选择另一个文件夹。
folder-session_files = 该文件夹里有你桌面会话的私有文件（钥匙环和其他程序在那里监听），助手绝不能接触这些文件。请选择另一个文件夹。

## 撤销与“活动”（src-tauri/core/src/undo/words.rs、app/codes.rs 的 UndoError）

undo-bytes = { $count } 字节
undo-too-large-on-card = 这项更改无法撤销：文件大小为 { $size }，太大了，Ask First 无法保留副本。
undo-too-large = 文件大小为 { $size }，太大了，Ask First 无法保留副本。
undo-command = 命令无法撤销：Ask First 看不到一条命令改动的全部内容。
undo-other-program = Ask First 无法撤销另一个程序的工具所做的事，只能显示卡片上说过的内容。
undo-no-copy = Ask First 没有保留这项更改之前的副本（这项更改发生在“撤销”功能出现之前）。
undo-copy-refused = Ask First 无法保留 { $file } 的副本以便撤销这项更改（磁盘可能已满），所以没有改动这个文件。请腾出一些空间，然后再试一次。
undo-changed-since = 在助手更改之后，{ $file } 又被改过。撤销会放回助手更改之前的版本，之后的那些改动将会丢失。
undo-changed-since-created = 在助手创建 { $file } 之后，它又被改过。撤销会把它连同这些改动一起移到回收站（你可以从那里恢复）。
undo-changed-since-more = 这个任务中还有 { $count } 个文件在助手更改之后也被改过，那些改动也将会丢失。
undo-undone = 已撤销：{ $summary }。
undo-task-undone = 已撤销这个任务的 { $count } 项更改，从最新的开始。
undo-not-recorded = Ask First 无法把这项更改记入对话的历史，所以没有进行这项更改。请腾出一些空间，然后再试一次。
error-undo-not_found = 这项更改已不在对话的历史中，所以无法撤销。关闭“活动”再重新打开，看看现在有什么。
error-undo-already_undone = 这项更改已经撤销过了，所以没有再改动任何东西。可以在“活动”中看到它标记为已撤销。
error-undo-cannot_undo = { $why } 请自己查看这些文件，把它们恢复原样。
error-undo-too_old = 撤销这项更改所需的副本为了节省空间已被清除（最早的副本先被清除），所以再也无法撤销。请在回收站或备份中寻找较早的版本。
error-undo-folder_gone = 做这项更改时所在的文件夹 { $folder } 已经不在了，所以无法撤销。请把文件夹放回原处，然后再试一次。
error-undo-place_taken = { $path } 现在有别的东西，所以没有把任何东西放回那里。请移动它或给它改名，然后再试一次。
error-undo-gone = “{ $path }”已经不在了，所以没有什么可撤销的。如果需要它，请到回收站里找找。
error-undo-gone_from_trash = “{ $path }”已不在回收站中（回收站可能已被清空），所以无法恢复。如果有备份，请在备份里找找。
error-undo-log = Ask First 无法把这次撤销记入对话的历史，所以什么也没有撤销。请腾出一些空间，然后再试一次。
error-undo-failed = 撤销没有成功，文件保持原样。请再试一次；如果一直失败，请查看“详细信息”。
error-undo-task_stopped = 已从最新的开始撤销了这个任务 { $total } 项更改中的 { $undone } 项，然后在“{ $summary }”处停下：{ $why } 更早的更改保持原样。
error-undo-not_a_folder = “{ $folder }”已经不是文件夹了：原来的位置上现在是别的东西，比如指向别处的快捷方式。Ask First 不会通过它撤销，所以什么也没有改动。请把文件夹放回原处，然后再试一次。

## 这台电脑上的其他智能体（src-tauri/core/src/inbox/words.rs、app/codes.rs 的 ConnectError）

inbox-wants-run = { $agent }（在文件夹 { $folder } 中）想要运行 `{ $command }`
inbox-wants-write = { $agent }（在文件夹 { $folder } 中）想要写入文件 { $path }（{ $lines } 行）
inbox-wants-edit = { $agent }（在文件夹 { $folder } 中）想要修改文件 { $path }
inbox-wants-read = { $agent }（在文件夹 { $folder } 中）想要读取文件 { $path }
inbox-wants-fetch = { $agent }（在文件夹 { $folder } 中）想要从互联网获取 { $url }
inbox-wants-use = { $agent }（在文件夹 { $folder } 中）想要使用它的工具“{ $tool }”
inbox-reason = { $agent } 在这里而不是在它的终端里询问你。它在自己的文件夹里工作，不是你为 Ask First 选择的那个文件夹，而且 Ask First 不会限制它做的事。
inbox-not-ours = 这是 { $agent } 自己的请求：如果你批准，由 { $agent } 自己去做。
inbox-no-home = Ask First 不知道你的主文件夹在哪里，所以找不到其他智能体的设置。
inbox-cannot-read = Ask First 无法读取 { $agent } 的设置文件。请检查它是否有效，然后再试一次。
error-connect-no_home = Ask First 不知道你的主文件夹在哪里，所以无法更改这个智能体的设置。请从你的桌面会话启动 Ask First，然后再试一次。
error-connect-no_hook = Ask First 旁边没有安装 askfirst-hook 程序，所以无法连接这个智能体。请重新安装 Ask First，然后再试一次。
error-connect-io = Ask First 无法更改这个智能体的设置文件。请确认这个文件可以写入，然后再试一次。
error-connect-not_settings = 这个智能体的设置文件里有错误，所以 Ask First 没有改动它。请改正这个文件（或把它移走），然后再试一次。

# The inbox: an allow rule matched another agent's request, which is still asked.
inbox-allow-rule-not-applied = 你的一条规则会允许 Ask First 自己的助手这样做，但 { $agent } 不像 Ask First 的助手那样被限制在你的文件夹里，所以还是要问你。
inbox-command-reaches-kept = { $agent } 自己运行这条命令，所以 Ask First 无法对它隐藏你的规则保护的内容，而它工作的文件夹里就有其中一部分：{ $rules }。它可能不点名就读取或更改这些地方。只有确定它不会碰这些地方时才批准。
inbox-command-reaches-kept_more = { $agent } 自己运行这条命令，所以 Ask First 无法对它隐藏你的规则保护的内容，而它工作的文件夹里就有其中一部分：{ $rules }；另外还有 { $more } 条。它可能不点名就读取或更改这些地方。只有确定它不会碰这些地方时才批准。
inbox-command-reach-unknown = { $agent } 自己运行这条命令，而命令的文字并没有显示它会读取或更改的全部内容（它运行的代码或程序，Ask First 看不到其内部）。它可能接触到 Ask First 自己的文件，包括你的设置和密钥，而 Ask First 无法对它隐藏这些文件。只有在你信任它所运行的内容时才批准。
inbox-command-near-own-files = { $agent } 自己运行这条命令，所在的文件夹里有 Ask First 自己的文件（你的设置、密钥和历史记录），而 Ask First 无法对它隐藏这些文件。只有在你确定它不会动这些文件时才批准。
# The inbox: what "Allow in this conversation" does on another agent's card (its own session permission).
inbox-session-command = 在你关闭那个 { $agent } 对话之前，{ $agent } 不会再为完全相同的 `{ $command }` 询问。这是 { $agent } 自己记住的，所以也不会再来问 Ask First。
inbox-session-site = 在你关闭那个 { $agent } 对话之前，{ $agent } 从 { $host } 获取网页时不会再询问。这是 { $agent } 自己记住的，所以也不会再来问 Ask First。
## 以句子说出的规则（src-tauri/core/src/policy/words.rs）。$kind 是规则的类别（deny：禁止，ask：先问，allow：始终允许）；
## $shape 是规则针对的对象：all、folder、path、matching、command / command_more、site / site_sub。

rule-read_file = { $kind ->
        [deny] { $shape ->
               *[all] 禁止读取文件
                [folder] 禁止读取 { $folder } 中的文件
                [path] 禁止读取 { $path }
                [matching] 禁止读取匹配“{ $pattern }”的文件
        }
       *[ask] { $shape ->
               *[all] 读取文件前先问我
                [folder] 读取 { $folder } 中的文件前先问我
                [path] 读取 { $path } 前先问我
                [matching] 读取匹配“{ $pattern }”的文件前先问我
        }
        [allow] { $shape ->
               *[all] 始终允许读取文件
                [folder] 始终允许读取 { $folder } 中的文件
                [path] 始终允许读取 { $path }
                [matching] 始终允许读取匹配“{ $pattern }”的文件
        }
    }
rule-list_directory = { $kind ->
        [deny] { $shape ->
               *[all] 禁止列出文件夹的内容
                [folder] 禁止列出 { $folder } 中的文件夹的内容
                [path] 禁止列出 { $path } 的内容
                [matching] 禁止列出匹配“{ $pattern }”的文件夹的内容
        }
       *[ask] { $shape ->
               *[all] 列出文件夹的内容前先问我
                [folder] 列出 { $folder } 中的文件夹的内容前先问我
                [path] 列出 { $path } 的内容前先问我
                [matching] 列出匹配“{ $pattern }”的文件夹的内容前先问我
        }
        [allow] { $shape ->
               *[all] 始终允许列出文件夹的内容
                [folder] 始终允许列出 { $folder } 中的文件夹的内容
                [path] 始终允许列出 { $path } 的内容
                [matching] 始终允许列出匹配“{ $pattern }”的文件夹的内容
        }
    }
rule-write_file = { $kind ->
        [deny] { $shape ->
               *[all] 禁止写入文件
                [folder] 禁止写入 { $folder } 中的文件
                [path] 禁止写入 { $path }
                [matching] 禁止写入匹配“{ $pattern }”的文件
        }
       *[ask] { $shape ->
               *[all] 写入文件前先问我
                [folder] 写入 { $folder } 中的文件前先问我
                [path] 写入 { $path } 前先问我
                [matching] 写入匹配“{ $pattern }”的文件前先问我
        }
        [allow] { $shape ->
               *[all] 始终允许写入文件
                [folder] 始终允许写入 { $folder } 中的文件
                [path] 始终允许写入 { $path }
                [matching] 始终允许写入匹配“{ $pattern }”的文件
        }
    }
rule-edit_file = { $kind ->
        [deny] { $shape ->
               *[all] 禁止修改文件
                [folder] 禁止修改 { $folder } 中的文件
                [path] 禁止修改 { $path }
                [matching] 禁止修改匹配“{ $pattern }”的文件
        }
       *[ask] { $shape ->
               *[all] 修改文件前先问我
                [folder] 修改 { $folder } 中的文件前先问我
                [path] 修改 { $path } 前先问我
                [matching] 修改匹配“{ $pattern }”的文件前先问我
        }
        [allow] { $shape ->
               *[all] 始终允许修改文件
                [folder] 始终允许修改 { $folder } 中的文件
                [path] 始终允许修改 { $path }
                [matching] 始终允许修改匹配“{ $pattern }”的文件
        }
    }
rule-move_path = { $kind ->
        [deny] { $shape ->
               *[all] 禁止移动或重命名文件和文件夹
                [folder] 禁止移动或重命名 { $folder } 中的文件和文件夹
                [path] 禁止移动或重命名 { $path }
                [matching] 禁止移动或重命名匹配“{ $pattern }”的文件和文件夹
        }
       *[ask] { $shape ->
               *[all] 移动或重命名文件和文件夹前先问我
                [folder] 移动或重命名 { $folder } 中的文件和文件夹前先问我
                [path] 移动或重命名 { $path } 前先问我
                [matching] 移动或重命名匹配“{ $pattern }”的文件和文件夹前先问我
        }
        [allow] { $shape ->
               *[all] 始终允许移动或重命名文件和文件夹
                [folder] 始终允许移动或重命名 { $folder } 中的文件和文件夹
                [path] 始终允许移动或重命名 { $path }
                [matching] 始终允许移动或重命名匹配“{ $pattern }”的文件和文件夹
        }
    }
rule-delete_path = { $kind ->
        [deny] { $shape ->
               *[all] 禁止删除文件和文件夹
                [folder] 禁止删除 { $folder } 中的文件和文件夹
                [path] 禁止删除 { $path }
                [matching] 禁止删除匹配“{ $pattern }”的文件和文件夹
        }
       *[ask] { $shape ->
               *[all] 删除文件和文件夹前先问我
                [folder] 删除 { $folder } 中的文件和文件夹前先问我
                [path] 删除 { $path } 前先问我
                [matching] 删除匹配“{ $pattern }”的文件和文件夹前先问我
        }
        [allow] { $shape ->
               *[all] 始终允许删除文件和文件夹
                [folder] 始终允许删除 { $folder } 中的文件和文件夹
                [path] 始终允许删除 { $path }
                [matching] 始终允许删除匹配“{ $pattern }”的文件和文件夹
        }
    }
rule-run_command = { $kind ->
        [deny] { $shape ->
               *[all] 禁止运行命令
                [folder] 禁止运行涉及 { $folder } 的命令
                [command] 禁止运行命令“{ $words }”
                [command_more] 禁止运行命令“{ $words }”（后面跟任何内容都算）
                [matching] 禁止运行匹配“{ $pattern }”的命令
        }
       *[ask] { $shape ->
               *[all] 运行命令前先问我
                [folder] 运行涉及 { $folder } 的命令前先问我
                [command] 运行命令“{ $words }”前先问我
                [command_more] 运行命令“{ $words }”（后面跟任何内容都算）前先问我
                [matching] 运行匹配“{ $pattern }”的命令前先问我
        }
        [allow] { $shape ->
               *[all] 始终允许运行命令
                [folder] 始终允许运行涉及 { $folder } 的命令
                [command] 始终允许运行命令“{ $words }”
                [command_more] 始终允许运行命令“{ $words }”（后面跟任何内容都算）
                [matching] 始终允许运行匹配“{ $pattern }”的命令
        }
    }
rule-fetch_url = { $kind ->
        [deny] { $shape ->
               *[all] 禁止从互联网下载
                [site] 禁止从 { $host } 下载
                [site_sub] 禁止从 { $host } 及其子域名下载
                [matching] 禁止从匹配“{ $pattern }”的网址下载
        }
       *[ask] { $shape ->
               *[all] 从互联网下载前先问我
                [site] 从 { $host } 下载前先问我
                [site_sub] 从 { $host } 及其子域名下载前先问我
                [matching] 从匹配“{ $pattern }”的网址下载前先问我
        }
        [allow] { $shape ->
               *[all] 始终允许从互联网下载
                [site] 始终允许从 { $host } 下载
                [site_sub] 始终允许从 { $host } 及其子域名下载
                [matching] 始终允许从匹配“{ $pattern }”的网址下载
        }
    }
rule-mcp_tool = { $kind ->
        [deny] { $shape ->
               *[all] 禁止使用 MCP 服务器“{ $server }”的工具“{ $tool }”
                [folder] 禁止对 { $folder } 中的任何内容使用 MCP 服务器“{ $server }”的工具“{ $tool }”
                [matching] 禁止对匹配“{ $pattern }”的任何内容使用 MCP 服务器“{ $server }”的工具“{ $tool }”
        }
       *[ask] { $shape ->
               *[all] 使用 MCP 服务器“{ $server }”的工具“{ $tool }”前先问我
                [folder] 对 { $folder } 中的任何内容使用 MCP 服务器“{ $server }”的工具“{ $tool }”前先问我
                [matching] 对匹配“{ $pattern }”的任何内容使用 MCP 服务器“{ $server }”的工具“{ $tool }”前先问我
        }
        [allow] { $shape ->
               *[all] 始终允许使用 MCP 服务器“{ $server }”的工具“{ $tool }”
                [folder] 始终允许对 { $folder } 中的任何内容使用 MCP 服务器“{ $server }”的工具“{ $tool }”
                [matching] 始终允许对匹配“{ $pattern }”的任何内容使用 MCP 服务器“{ $server }”的工具“{ $tool }”
        }
    }
rule-other_tool = { $kind ->
        [deny] { $shape ->
               *[all] 禁止使用工具“{ $tool }”
                [folder] 禁止对 { $folder } 中的任何内容使用工具“{ $tool }”
                [matching] 禁止对匹配“{ $pattern }”的任何内容使用工具“{ $tool }”
        }
       *[ask] { $shape ->
               *[all] 使用工具“{ $tool }”前先问我
                [folder] 对 { $folder } 中的任何内容使用工具“{ $tool }”前先问我
                [matching] 对匹配“{ $pattern }”的任何内容使用工具“{ $tool }”前先问我
        }
        [allow] { $shape ->
               *[all] 始终允许使用工具“{ $tool }”
                [folder] 始终允许对 { $folder } 中的任何内容使用工具“{ $tool }”
                [matching] 始终允许对匹配“{ $pattern }”的任何内容使用工具“{ $tool }”
        }
    }
rule-anything = { $kind ->
        [deny] { $shape ->
               *[all] 什么都不许做（每个操作都会被拒绝）
                [folder] 禁止操作 { $folder } 中的任何内容
                [path] 禁止操作 { $path }
                [matching] 禁止操作匹配“{ $pattern }”的任何内容
        }
       *[ask] { $shape ->
               *[all] 做任何事之前都先问我
                [folder] 操作 { $folder } 中的任何内容前先问我
                [path] 操作 { $path } 前先问我
                [matching] 操作匹配“{ $pattern }”的任何内容前先问我
        }
        [allow] { $shape ->
               *[all] 始终允许一切，不用问我
                [folder] 始终允许操作 { $folder } 中的任何内容
                [path] 始终允许操作 { $path }
                [matching] 始终允许操作匹配“{ $pattern }”的任何内容
        }
    }

## “添加规则”表单中“做什么”的选项（src-tauri/core/src/policy/words.rs）。

rule-action-anything = 任何操作
rule-action-read_file = 读取文件
rule-action-list_directory = 列出文件夹里的内容
rule-action-write_file = 写入文件（新建或替换）
rule-action-edit_file = 修改文件的一部分
rule-action-move_path = 移动或重命名文件和文件夹
rule-action-delete_path = 删除文件和文件夹
rule-action-run_command = 运行命令
rule-action-fetch_url = 从互联网下载
rule-action-mcp_tool = MCP 服务器“{ $server }”的工具“{ $tool }”
rule-action-other_tool = 工具“{ $tool }”

## 设置 → 规则中的规则被拒绝时（src-tauri/core/src/app/rules_screen.rs，RuleEditError）。

rule_edit-file = 规则文件无法修改，所以什么都没有改变。请手动修好这个文件（或删除它重新开始），或确认 Ask First 可以写入它的数据文件夹，然后再试一次。
rule_edit-unknown_action = Ask First 没有可以为之制定规则的操作“{ $name }”。请从列表中选择一个。
rule_edit-scope_not_for_action = { $name }不能选择这种位置。请从列表中选择另一个。
rule_edit-allow_by_folder = { $name }不能按文件夹允许，因为 Ask First 无法确定它们会作用在哪里。请选择“总是先问我”或“永远不要”，或者在所有地方都允许。
rule_edit-folder_missing = 请选择一个文件夹，或者选择“所有地方”。
rule_edit-folder_not_inside = 请按它在你的文件夹中的样子写出文件夹，例如 Private 或 Photos/2024（不要带“..”）。
rule_edit-folder_pattern = 这里不能使用带有通配符（例如 * 或 ?）的文件夹名。请改为在规则文件中手动写这样的规则。
rule_edit-folder_not_found = 你的文件夹中没有名为“{ $name }”的文件夹。请检查名称，或从列表中选择一个。
rule_edit-not_a_folder = “{ $name }”是一个文件，不是文件夹。请改选一个文件夹。
rule_edit-command_missing = 请输入命令开头的几个词，例如“git status”。
rule_edit-command_pattern = 请按原样输入命令的词，不要带通配符（例如 * 或 ?）或引号。请改为在规则文件中手动写这样的规则。
rule_edit-site_invalid = “{ $name }”不是一个网站。请输入类似 example.com 的网站名。
rule_edit-site_missing = 请输入网站的名称，例如“example.com”。
rule_edit-already_there = 你已经有这条规则了：{ $name }。如果想改成别的，请使用它的“更改”按钮。
rule_edit-no_such_rule = 这条规则已经不在规则文件中了（可能在文件里被修改过）。列表现在显示的是文件的实际内容：请看一下再试一次。

## MCP 服务器的设置无法保存时（src-tauri/core/src/mcp/config.rs，McpConfigError）。

mcp_config-name_length = 请给服务器起一个 1 到 { $limit } 个字符的名字。
mcp_config-name_characters = 服务器名只能使用（不带重音的）英文字母、数字、"-" 和 "_"（它会成为其工具名的一部分）。
mcp_config-no_longer_saved = 已经没有名为“{ $name }”的 MCP 服务器了。
mcp_config-no_such_server = 没有名为“{ $name }”的 MCP 服务器。
mcp_config-name_taken = 已有另一个 MCP 服务器名为“{ $name }”；名字不能只在大小写上不同。
mcp_config-unclosed_quote = 命令中有一个没有闭合的引号。
mcp_config-no_program = 请说明用哪个程序启动这个服务器（例如：npx -y @modelcontextprotocol/server-filesystem ~/Documents）。
mcp_config-variable_name = “{ $name }”不能用作环境变量名：请使用字母、数字和 "_"，且不要以数字开头。
mcp_config-variable_value = 请给变量 { $name } 一个值。
mcp_config-variable_twice = 变量 { $name } 列出了两次。

## 设置 → MCP 服务器中显示的服务器状态（src-tauri/core/src/mcp/server.rs 和 stderr.rs）。
# { $trouble } 是 mcp-trouble-* 中的一句；{ $said } 是 mcp-it_said 或空。

mcp-call = 使用 MCP 服务器“{ $server }”的“{ $tool }”
mcp-call-titled = 使用 MCP 服务器“{ $server }”的“{ $tool }”（服务器称它为“{ $title }”）
mcp-start_failed = MCP 服务器“{ $server }”无法启动：{ $trouble }。{ $said }请在设置中检查它的命令；下次需要它时会再试一次，最早在 { $retry }后。
mcp-trouble-slow = 它没有在 { $wait }内完成启动
mcp-trouble-not_found = 找不到程序“{ $program }”
mcp-trouble-cannot_run = 程序“{ $program }”无法运行
mcp-trouble-stopped_early = 它在准备好之前就停止了
mcp-trouble-not_mcp = 它的回答不像一个 MCP 服务器
mcp-trouble-no_tools = 它无法列出自己的工具
# 服务器最后写出的内容，原样显示。
mcp-it_said = 它说：“{ $text }”。
mcp-stopped = MCP 服务器“{ $server }”停止了。{ $said }下次需要它的某个工具时会重新启动它。
mcp-stopped_during_call = MCP 服务器“{ $server }”在运行“{ $tool }”时停止了，所以不知道它是否做了什么。下次需要它的某个工具时会重新启动它。
mcp-call_timed_out = MCP 服务器“{ $server }”没有在 { $wait }内回答，所以已被停止；不知道“{ $tool }”是否做了什么。下次需要它的某个工具时会重新启动它。
mcp-retired = MCP 服务器“{ $server }”已在设置中被移除或更改，所以没有使用它。
mcp-not_tried_again = { $failure }（还没有重试：下次尝试在 { $wait }后。）
mcp-refused = MCP 服务器“{ $server }”拒绝运行“{ $tool }”：{ $said }
mcp-bad_answer = 使用“{ $tool }”时，MCP 服务器“{ $server }”没有正确回答（{ $why }）。
mcp-tool_error = MCP 服务器“{ $server }”的工具“{ $tool }”报告了一个错误：{ $said }
mcp-problem-no_name = 设置中有一个 MCP 服务器没有名字；给它起个名字才能使用它。
mcp-problem-no_command = MCP 服务器“{ $server }”在设置中没有命令，所以无法启动。请在设置中（编辑）给它一个命令。
mcp-problem-same_name = 设置中另一个 MCP 服务器与“{ $server }”同名（或只在标点上不同）；请给每个服务器起不同的名字。
mcp-status-next_task = 下一个任务开始时启动。
mcp-status-when_needed = 任务需要它时启动。
mcp-status-starting = 正在启动…
mcp-status-running = 正在运行，有 { $count } 个工具。

## 设置页面上：模型服务的密钥保存在哪里。

key_place-keyring = 你的密钥保存在桌面的密钥环中。
key_place-file_no_keyring = 这台电脑上没有可用的密钥环，所以你的密钥保存在 Ask First 的设置文件中，只有你能读取。
key_place-file_keyring_refused = 你的密钥保存在 Ask First 的设置文件中，只有你能读取：桌面的密钥环没有接受它。
key_place-none_keyring = 你在这里保存的密钥会放在桌面的密钥环中。
key_place-none_no_keyring = 这台电脑上没有可用的密钥环，所以你在这里保存的密钥会放在 Ask First 的设置文件中，只有你能读取。
key_place-keyring_silent = 桌面的密钥环没有回应，所以 Ask First 无法确定你的密钥是否保存在那里。
key_place-environment = 你的密钥来自环境变量 { $name }，它优先于设置中的密钥。

## 策略未经询问就拒绝某个操作的原因（src-tauri/core/src/policy/、command_line/hard.rs）。
refusal-own_files = 助手不能读取或更改 Ask First 自己的文件（设置、规则、对话记录）。
refusal-too_many_texts = 这个操作列出的内容太多（或太长），Ask First 无法逐一检查其中是否有它不能碰的路径，所以没有执行。请分成几小步来做。
refusal-outside_workspace = { $path } 在你的工作文件夹之外。
refusal-dont_ask_now = 你选择了在这次对话中不被询问，所以需要你同意的操作都不会执行。
refusal-rule_forbids = 你的规则“{ $rule }”禁止这样做。
refusal-answer_not_saved = 你的回答无法保存到 Ask First 的记录中，可能是磁盘已满；为了安全，什么都没有执行
refusal-question_not_saved = 这个请求无法保存到 Ask First 的记录中，可能是磁盘已满，所以没有询问你
refusal-nobody_to_answer = 这里没有人可以同意“{ $summary }”
refusal-command-stops = 这个命令会关闭或重启电脑。
refusal-command-wipes = 这个命令可能会清空一个磁盘或整个系统。
refusal-command-device = 这个命令会直接写入磁盘，可能毁掉上面的所有内容。
refusal-command-deletes_outside = 这个命令会永久删除你的工作文件夹之外的整个文件夹（一个绝对路径、你的主文件夹，或带有 `..` 的路径）。
refusal-command-deletes_unknown = 这个命令会删除一个整个文件夹，而它的名字要到运行时才知道（来自一个变量），所以它可能在你的工作文件夹之外。
refusal-command-everything_permissions = 这个命令会更改电脑上或你的主文件夹里所有文件的权限或所有者。
refusal-command-kills_all = 这个命令会停止你正在运行的所有程序，包括 Ask First。
refusal-command-too_deep = 这个命令里的命令层层嵌套，太深了，无法检查。
refusal-command-fork_bomb = 这个命令是一个“fork 炸弹”：它会让电脑无法使用。
# $name: a path in the folder; $rule: the rule's sentence.
refusal-command_change = 在你的文件夹副本上试运行时，这个命令会{ $change ->
    [created] 创建
    [deleted] 删除
   *[other] 更改
} { $name }，而你的规则“{ $rule }”禁止这样做，所以它所做的一切都没有放进你的文件夹。

tool_failed-invalid_arguments = 助手使用 { $tool } 的请求无效，所以什么都没有做。
tool_failed-no_such_tool = 助手请求了一个名为“{ $tool }”的工具，但 Ask First 没有这个工具，所以什么都没有做。
tool_failed-server_down = “{ $tool }”现在无法使用。{ $why }
tool_failed-io-read = 无法读取 { $path }：{ $why }。
tool_failed-io-write = 无法保存 { $path }：{ $why }。
tool_failed-io-list = 无法列出 { $path } 中的内容：{ $why }。
tool_failed-io-move = 无法移动 { $path }：{ $why }。
tool_failed-io-create_folder = 无法为 { $path } 创建文件夹：{ $why }。
tool_failed-why-permission = 你没有权限
tool_failed-why-not_found = 它不存在
tool_failed-why-disk_full = 磁盘已满
tool_failed-why-read_only = 这个磁盘只能读取，不能写入
tool_failed-is_a_folder = { $name } 是一个文件夹，不是文件。
tool_failed-no_such_file = 文件 { $name } 不存在。
tool_failed-not_text = { $name } 不是文本文件，所以无法编辑。
tool_failed-edit_not_found = { $name } 中没有要替换的文字，所以什么都没有改。
tool_failed-edit_many = 要替换的文字在 { $name } 中出现了 { $count } 次，Ask First 无法判断该改哪一处，所以什么都没有改。
tool_failed-command-exit_code = 命令执行失败（退出码 { $code }）。
tool_failed-command-signal = 命令被信号 { $signal } 结束。
tool_failed-command-no_code = 命令结束了，但没有退出码。
tool_failed-command-too_long = 命令运行了 { $wait } 仍未结束，所以它和它启动的一切都被停止了。
tool_failed-command-left_running = 它在后台留下了仍在运行的程序；这些程序已被停止。
# $size: a size (8 GB); $count: a number of files.
tool_failed-command-wrote_too_much = 命令已被停止：它在你的文件夹副本上写入的内容超过了命令允许写入的量（超过 { $size } 或 { $count } 个文件，或正在占满磁盘）。它所做的一切都没有放进你的文件夹。
tool_failed-command-printed = 它输出的内容：
tool_failed-command-printed_nothing = 它没有输出任何内容。
tool_failed-not_there = { $name } 不存在。
tool_failed-already_there = { $name } 已经存在，所以没有被替换。
tool_failed-move_workspace = 工作文件夹本身不能被移动。
tool_failed-trash_workspace = 工作文件夹本身不能被移到回收站。
tool_failed-trash_failed = { $name } 无法移到回收站（{ $why }），所以它还在原处。Ask First 从不永久删除任何东西。
tool_failed-command-unsupported = 这个系统上暂时还不能运行命令。
tool_failed-command-not_started = 命令无法启动（{ $why }）。
# $command: the command line; $count: how many changes it made on the copy (1 or more).
card-command-tried = 把命令 `{ $command }` 在你的文件夹副本上做的事应用到你的文件夹：{ $count ->
   *[other] { $count } 项更改
}
card-command-tried-reason = 你的文件夹还没有任何改变：这个命令是在副本上运行的，没有联网。
card-command-tried-apply = 批准会把下面列出的更改原样放进你的文件夹（命令不会再运行一次），之后可以在“活动”中撤销。拒绝则丢弃这些更改。
card-command-tried-grant_scope = 在这次对话打开期间，同一个命令可以不经询问再次做出这些更改：同样的文件，同样的更改方式。任何更多的内容（其他文件、其他类型的更改，或它运行的脚本之后被修改过）仍会询问。当你开始或打开另一个对话，或关闭 Ask First 时结束。
# $command: the command line.
card-command-tried-granted = 命令 `{ $command }`，做出与你允许的相同的更改
tried-ended_ok = 它正常结束，没有出错。
# $why: the technical reason.
tried-unreadable = 命令已在你的文件夹副本上试运行，但 Ask First 无法读取它做了哪些更改（{ $why }），所以什么都没有应用。
# $why: the technical reason.
tried-no_copy = 命令没有运行：Ask First 无法为你的文件夹制作用于试运行的副本（{ $why }）。
# $name: a file's path in the folder.
tried-conflict = 什么都没有应用：命令试运行之后，你文件夹中的 { $name } 发生了变化，应用会覆盖这些变化。请再次要求，在文件夹当前的状态下重新试运行命令。
# $why: the technical reason.
tried-apply_failed = 命令的更改无法放进你的文件夹（{ $why }），所以一项也没有应用。
tool_failed-command-lost = Ask First 失去了对命令的跟踪（{ $why }），所以它启动的一切都被停止了。
# $cap: a number (1000).
tool_failed-command-too_many_kept = 命令没有运行：你的规则让文件夹里超过 { $cap } 个文件和文件夹远离命令，数量太多，无法对它隐藏。一条指定文件夹的规则可以一次保护其中的所有内容。
# $entries: a number (50000); $depth: a number (32).
tool_failed-command-folder_too_big = 命令没有运行：你的文件夹太大，无法找出规则要让命令远离的所有内容（超过 { $entries } 个文件，或文件夹深达 { $depth } 层）。请为这个任务选择一个更小的文件夹，或让规则指定一个文件夹。
# $name: a folder's full path.
tool_failed-command-unreadable = 命令没有运行：Ask First 无法查看 { $name } 的内容来找出你的规则要让命令远离的东西，因为它的权限被改动了。请让这个文件夹重新对你可读，然后再试一次。
tool_failed-edit_too_large = { $name } 太大，无法编辑：上限是 { $limit } MB。
tool_failed-interrupted-read = 读取 { $name } 时意外中断，所以没有读到它。
tool_failed-interrupted-edit = 编辑 { $name } 时意外中断，所以什么都没有改。
tool_failed-interrupted-trash = 把 { $name } 移到回收站时意外中断。请在回收站里看看它是否在那里。
tool_failed-no_name = “{ $path }”不是一个文件或文件夹的名称。
tool_failed-special = { $name } 不是普通文件（它是{ $kind }），所以 Ask First 不会打开它。
tool_failed-why-special = 它不是普通文件（它是{ $kind }），所以 Ask First 不会打开它
special_kind-pipe = 命名管道
special_kind-device = 设备
special_kind-socket = 套接字
special_kind-folder = 文件夹
place-this_computer = 这台电脑上的地址
place-local_network = 你的局域网中的地址
place-internet = 互联网上的地址
tool_failed-fetch-no_address = 无法读取 { $url }：找不到 { $host } 的地址。
tool_failed-fetch-leads_elsewhere = Ask First 没有连接：{ $url } 向你显示为{ $shown }，但名称 { $host } 指向 { $ip }，那是{ $actual }。
tool_failed-fetch-redirect_not_web = { $from } 把请求转到了 { $to }，这不是网页地址，所以 Ask First 没有去那里。
tool_failed-fetch-redirect_elsewhere = { $from } 把请求转到了 { $to }（{ $place }），这不是你批准的地址，所以 Ask First 没有去那里。如果助手请求那个地址，你会看到一张新的卡片。
tool_failed-fetch-redirect_elsewhere_unencrypted = { $from } 把请求转到了 { $to }（{ $place }），这不是你批准的地址，而且没有加密，所以 Ask First 没有去那里。如果助手请求那个地址，你会看到一张新的卡片。
tool_failed-fetch-failed = 无法读取 { $url }：{ $why }。
tool_failed-fetch-no_answer = { $url } 在 { $wait } 内没有回应。
tool_failed-fetch-not_prepared = Ask First 无法准备对 { $url } 的请求：{ $why }。
tool_failed-fetch-error_status = { $url } 回答了一个错误（HTTP 状态码 { $status }）。
tool_failed-fetch-note-size_cap = 只读取了前 { $limit } MB；其余部分没有下载。
tool_failed-fetch-note-slow = 下载超过了 { $wait }；只显示在那之前收到的内容。
tool_failed-fetch-note-broke_off = 下载中断了（{ $why }）；只显示已经收到的内容。
tool_failed-fetch-no_text = 它没有发来任何文字。
tool_failed-fetch-not_text = 它发来了 { $bytes } 字节的非文字内容，所以不显示。
tool_failed-fetch-sent = 它发来的内容：
# 演示文件夹在磁盘上的名字，创建时定下一次（一个文件夹名：不含“/”）。
demo-folder-name = 演示文件夹
demo-say-hello = 你好！我是演示助手。我来整理你的演示文件夹。先看看里面有什么。
demo-say-summary = 我想把这些文件的简短摘要写进一个新文件 summary.txt。
demo-say-archive = old-report.txt 已经过时了，所以我建议把它移到 Archive 文件夹里。
demo-say-done = 我计划做的就是这些。每一项更改都等了你的回答；上面的列表显示了哪些做了、哪些没做。
demo-summary =
    你的文件夹摘要
    - shopping-list.txt：要买的五样东西（牛奶、鸡蛋、面包、西红柿、咖啡）。
    - meeting-notes.txt：预算审查改到星期四；假期安排要在星期五前交。
    - old-report.txt：去年的报告草稿，已经过时。

## 在 Ask First 中运行的其他智能体（ACP）：{ $agent } 是它的名称（"Gemini CLI"）。
acp-not_started = 无法启动智能体 { $agent }：{ $why }。请在"设置"的"谁来做事"中检查它的命令。
acp-version = 智能体 { $agent } 使用的协议版本（{ $version }）与 Ask First（1）不同，因此无法在这里工作。
acp-gave_up = 智能体 { $agent } 没有完成任务就结束了这一轮（{ $reason }）。
acp-unknown_method = 智能体 { $agent } 向 Ask First 请求了它不提供的功能（{ $method }），因此任务已停止。
acp-too_long = 智能体 { $agent } 发送的消息超过了 Ask First 接受的大小（{ $limit } MB），因此任务已停止。
acp-not_json = 智能体 { $agent } 发送的内容不是其协议的消息，因此任务已停止。
acp-exited = 智能体 { $agent } 在任务进行中停止了。它最后说的话在"详细信息"中。
acp-hung = 智能体 { $agent } 已有 { $seconds } 秒没有任何消息，因此任务已停止。
acp-flood = 智能体 { $agent } 为一个任务发送了超过 { $count } 条消息，因此任务已停止。
acp-sign_in = 智能体 { $agent } 需要你先登录。请打开终端，运行一次 { $program } 并按步骤登录，然后重试这个任务。Ask First 不会看到你的登录信息。
acp-refused = 智能体 { $agent } 没有接受这个任务：{ $why }
acp-card-summary = 智能体 { $agent } 想要：{ $title }
acp-card-reason = 智能体 { $agent } 在自己做这件事之前请求你的许可。
acp-does = { $agent }：{ $title }
acp-card-not_ours = 关于这件事，Ask First 只知道智能体 { $agent } 在这里说的内容。如果它通过 Ask First 在你的文件夹里写入文件，那会单独以一张卡片交给你，并显示改动内容。
acp-done_itself = 智能体 { $agent } 说这件事已完成。
