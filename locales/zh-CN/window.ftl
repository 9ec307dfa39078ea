# Ask First：窗口里的文字，简体中文。
# 格式和添加新文字的方法见 locales/en/window.ftl 开头的说明；英文版是参照。

## The top of the window

app-tagline = 你的助手在改动任何东西之前都会先问你。
app-conversations = 对话
app-settings = 设置
app-refuse-all = 现在别问我：凡是需要我同意的都拒绝
app-refuse-all-tip = 在你取消勾选之前，助手只能做不需要你同意的事。

## Quit

quit = 退出
quit-failed = Ask First 无法关闭它的窗口。请试试托盘里的“退出”，或者注销。
quit-confirm = 现在退出 Ask First 吗？等待你同意的事都不会去做；任务在这里停下，下次启动 Ask First 时从中断处继续（届时会再次询问你）。
quit-keep-open = 保持打开
quit-close-kept = 这个桌面没有托盘图标，所以关闭窗口不会关闭 Ask First：窗口已最小化，它仍在运行，这样在做任何有风险的事之前仍然可以先问你。要彻底关闭它，请按“退出”。
quit-ok = 好的

## Banners at the top of the cards

banner-needs-ok = Ask First 需要你的同意（{ $count } 项在等待）：
banner-settings-mistake = 你的设置文件有错误
banner-settings-mistake-body = 在它被修正或删除之前，Ask First 无法使用它：你在里面设置的内容（由谁回答、MCP 服务器）都没有生效，需要它的任务会因这条消息而停止，“设置”也不会覆盖这个文件。文件能被读取后，这条提示就会消失。
banner-cannot-save = Ask First 现在无法保存
banner-cannot-save-body = 它的历史记录无法写入，所以为了安全，在问题解决之前，它会拒绝所有需要你同意的操作。请在磁盘上腾出一些空间，或者确认 Ask First 可以写入它的数据文件夹；保存恢复正常后它会自己发现。

## The task box and the run's status

status-ready = 就绪
status-waiting = 等待你的同意
status-working = 正在工作…
status-retrying-busy = AI 服务正忙：{ $seconds } 秒后重试（第 { $next } 次，共 { $tries } 次）
status-retrying-service_trouble = AI 服务出了问题：{ $seconds } 秒后重试（第 { $next } 次，共 { $tries } 次）
status-retrying-unreachable = 无法连接到 AI 服务：{ $seconds } 秒后重试（第 { $next } 次，共 { $tries } 次）
status-done = 完成
status-failed = 因出现问题而停止
status-stopped = 已停止
status-show-waiting = 显示第一个等待你同意的请求
composer-stop = 停止
composer-placeholder = 要助手做什么？（按 Enter 开始；Shift+Enter 换行）
composer-label = 给助手的任务（按 Enter 开始，Shift+Enter 换行）
composer-start = 开始

## The approval cards

approvals-heading = 等待你的同意
card-eyebrow = 助手想要
card-resumed = 再次询问：这一项等待你回答时 Ask First 被关闭了。它还没有被执行。
risk-low = 低风险
risk-medium = 中等风险
risk-high = 高风险
card-effects = 这会做什么
card-change = 将会改动的内容（绿色是添加，红色是删除）
card-exact-details = 助手发送的确切细节
card-tool-name = 工具：
card-sending = 正在发送你的回答…
card-ended = 已经结束
# $time is minutes:seconds, e.g. 1:05.
card-countdown = 等你回答 · { $time } 后自动拒绝
card-time-up = 时间到 · 未执行
card-countdown-tip = 如果你不回答，这个操作就不会执行。
card-deny = 拒绝
# Allows this exact action again, without asking, until the conversation ends; the line below
# the buttons says what it covers.
card-allow-conversation = 在本次对话中允许
# Followed by what the button allows, in the core's words.
alike-heading = { $tool ->
    [move_path] 这个任务有 { $count } 个移动操作在等你批准。
    [write_file] 这个任务有 { $count } 个要写入的文件在等你批准。
   *[other] 这个任务有 { $count } 个文件修改在等你批准。
}
alike-review = 一起回答这 { $count } 个…
alike-approve = 批准这 { $count } 个
alike-deny = 拒绝这 { $count } 个
alike-cancel = 逐个回答
card-allow-scope = “在本次对话中允许”包括什么
card-approve = 批准这一次
card-note-label = 助手应该改做什么？（{ $count } / { $max } 个字符）
card-deny-with-note = 拒绝并告诉助手
card-add-note = 拒绝并给助手留言…
card-change-call = 修改…
card-edit-title = 在执行前修改这个操作
card-edit-explain = 保存时不会执行任何操作：修改后的操作会有自己的卡片（或被你的规则拒绝），你在那里回答。
card-edit-field-path = 文件名
card-edit-field-content = 文件的文字
card-edit-field-new_text = 新文字
card-edit-field-to = 移动到
card-edit-field-command = 命令行
card-edit-save = 保存修改
card-edit-cancel = 取消

## When a card's request ended before the answer arrived

ended-quitting = 太晚了：Ask First 正在退出，所以这个请求已被取消。你的点击没有改变任何东西，操作没有执行。
ended-run-stopped = 太晚了：这次运行已被停止，所以这个请求已被取消。你的点击没有改变任何东西，操作没有执行。
ended-timed-out = 太晚了：这个请求已经超时并被拒绝。你的点击没有改变任何东西，操作没有执行。
ended-unavailable = 这个请求被拒绝了，因为你的回答无法被记录。你的点击没有改变任何东西，操作没有执行。
ended-policy = 这个请求被你的设置拒绝了。你的点击没有改变任何东西，操作没有执行。
ended-refused = 这个请求已经被拒绝了。你的点击没有改变任何东西，操作没有执行。
ended-allowed = 这个请求已经被允许，所以操作已经执行。
ended-changed = 你修改了这个请求；修改后的操作会单独询问。
ended-not-pending = 这个请求已经结束（超时了，或者运行被停止了）。你的点击没有改变任何东西，操作没有执行。
# $reason is what went wrong, in a sentence.
answer-not-sent = 你的回答没能发送：{ $reason }

## What a card shows of a command, and of a change to a file

detail-command-title = 它将在你的工作文件夹中运行的命令
detail-command-runs-in = 它在 { $folder } 中运行
diff-cut-note = … 这里没有显示 { $count } 行（添加 { $added } 行，删除 { $removed } 行）…
diff-cut-warning = 这个改动太长，无法完整显示：下面有 { $count } 行没有显示。打开“确切细节”可以看到助手发送的全部内容。
diff-cut-warning-some = 这个改动太长，无法完整显示：下面有一部分没有显示。打开“确切细节”可以看到助手发送的全部内容。

## Ask First 在文件夹的副本上试运行命令时它做了什么（显示在命令之前）

detail-command-tried-title = 命令
detail-command-tried-in = 它已在 { $folder } 的副本上试过
tried-label = 这个命令在你文件夹的副本上做了什么
tried-heading = 命令在副本上做了这些（批准会在你的文件夹中做同样的事）：
tried-nothing = 在你的文件夹副本上，它没有改动任何东西。
# 每一组改动。$shape 是 "files"（只有文件）、"folders"（只有文件夹）或 "both"；
# $files 和 $folders 是各自的数量。
tried-group-deleted = { $shape ->
    [folders] 删除 { $folders } 个文件夹
    [both] 删除 { $folders } 个文件夹和 { $files } 个文件
   *[files] 删除 { $files } 个文件
}
tried-group-created = { $shape ->
    [folders] 创建 { $folders } 个文件夹
    [both] 创建 { $folders } 个文件夹和 { $files } 个文件
   *[files] 创建 { $files } 个文件
}
tried-group-changed = 修改 { $count } 个文件
tried-group-moved = { $shape ->
    [folders] 移动 { $folders } 个文件夹
    [both] 移动 { $folders } 个文件夹和 { $files } 个文件
   *[files] 移动 { $files } 个文件
}
tried-group-mode = { $shape ->
    [folders] 更改 { $folders } 个文件夹的权限
    [both] 更改 { $folders } 个文件夹和 { $files } 个文件的权限
   *[files] 更改 { $files } 个文件的权限
}
tried-group-link = 创建或更改 { $count } 个链接
# 一组中的一项改动。$path 是它在你文件夹中的位置；$target 是链接指向的地方。
tried-item-folder-whole = 文件夹 { $path }，连同其中的一切
tried-item-folder = 文件夹 { $path }
tried-item-executable = 让 { $path } 可以执行（之后它可以作为程序运行）
tried-item-runs = 可以作为程序运行
tried-item-mode = { $path }（谁可以读取、修改或运行它）
tried-item-mode-folder = 文件夹 { $path }（谁可以打开或修改它）
tried-item-link = { $path }，指向 { $target }
tried-item-link-outside = { $path }，指向 { $target }，在你的文件夹之外
tried-mode-tip = 按计算机写法的新权限：r 读取，w 修改，x 运行；依次是所有者、所属组和其他所有人。
tried-show-diff = 显示其中的改动
tried-show-all = 显示全部 { $count } 项
tried-more = 还有 { $count } 项改动没有列在这里（批准也会做出这些改动）。
tried-printed = 它输出的内容（{ $lines } 行）
tried-printed-nothing = 它没有输出任何内容。

## Errors the window words itself

internal-failure = Ask First 内部出了问题，所以这件事没有做。请再试一次；如果一直这样，请关闭 Ask First 再重新打开。

## The conversation

transcript-label = 对话
transcript-new-below = 新消息：{ $count } 条
transcript-try-again = 再试一次
transcript-empty = 在下面告诉助手要做什么。它可以自己查看文件，但在改动任何东西之前都会先问你。
transcript-you = 你
# $provider is the name of who answers ("Demo", "OpenAI").
transcript-answered-by = 回答者：{ $provider }
transcript-resumed = Ask First 在这项任务进行中被关闭了。任务从中断处继续；之前等待你同意的操作会再次询问。
transcript-agent = 助手
transcript-finished = 助手完成了。
transcript-stopped = 助手被停止了。
# $message says why, in a sentence.
transcript-failed = 助手停下了：{ $message }
transcript-failed-unknown = 出了点问题。
transcript-loading = 正在加载这部分对话…
transcript-unloaded-failed = 暂时无法显示这部分对话。滚动离开再回来即可重试。
tool-queued = 排队等待中
tool-waiting = 等待你的同意
tool-approved = 已批准，轮到时执行
tool-running = 正在执行…
tool-succeeded = 完成
tool-succeeded-granted = 完成（在本次对话中已允许）
tool-succeeded-rule = 完成（你的规则允许）
tool-changed = 你在执行前修改了这个操作。
tool-changed-allowed = 你的规则允许修改后的操作而无需询问，所以没有再次询问。
tool-changed-details = 助手请求的内容，以及你修改后的内容
tool-changed-asked = 助手请求：
tool-changed-to = 你修改为：
tool-failed = 失败
tool-denied = 未执行：已拒绝
tool-cancelled = 未执行：已停止

## Allowed in this conversation

grants-label = 在本次对话中已允许
grants-heading = 在本次对话中，如果助手再次请求与下面完全相同的操作，将不再询问直接执行
grants-exact-details = 确切细节
grants-stop-allowing = 不再允许
grants-hint = 当你开始或打开另一个对话，或关闭 Ask First 时，这些允许就会结束；以后重新打开这个对话也不会恢复。其他任何操作仍会先问你。

## The folder the agent works in

folder-bar-label = 助手工作的文件夹
folder-missing = 这个对话的文件夹 { $folder } 已经不存在了。
folder-demo = 正在演示文件夹（示例文件）中工作
folder-working-in = 工作文件夹：{ $folder }
folder-change-new-conversation = 选择另一个文件夹会在那里开始一个新对话；这个对话保留它原来的文件夹。
folder-change-tip = 选择助手可以工作的文件夹。
folder-change-running = 等助手完成后才能更换文件夹。
# $variable is the name of an environment variable.
folder-set-by-env = （由 { $variable } 设定）
folder-choose-another = 选择另一个文件夹…
folder-change = 更换…

## Conversations

sessions-new = 开始新对话
sessions-running = 请先停止助手或等它完成，才能开始或打开另一个对话。
sessions-open-now = 当前打开
sessions-open = 打开

## The welcome

welcome-step = 欢迎使用 Ask First · 第 { $step } 步，共 { $steps } 步
welcome-folder-heading = 助手可以在哪个文件夹里工作？
welcome-folder-body = 助手可以查看这一个文件夹里的文件，并在你在卡片上同意后修改它们。文件夹以外的任何东西它都碰不到。
welcome-pick = 选择文件夹…
welcome-demo = 用演示文件夹试一试（示例文件）
welcome-folder-fixed = 文件夹在 Ask First 启动时已设定（{ $variable }）。
welcome-next = 下一步
welcome-skip = 暂时跳过
welcome-provider-heading = 由谁来回答？
welcome-provider-body = 助手需要一个模型来思考。你以后可以在“设置”里更改。
welcome-back = 返回

## Error details

error-details = 详情
error-hide-details = 隐藏详情
error-detail-cut = …（还有 { $count } 个字符没有显示）

## Showing text exactly: changes, JSON, hidden characters

diff-label = 将会改动的内容
diff-unchanged-between = 中间的行没有改动
diff-no-newline = （上面这一行后面没有换行）
visible-escape-tip = 一个隐藏字符或控制字符，以代码形式显示，这样它就无法隐藏或打乱文字
# $at is where the first mistake is: the number of the character, counted from 1.
json-invalid = 不是有效的 JSON（第 { $at } 个字符处有错误）；按原样显示：
json-folded = 为了让窗口保持流畅，部分内容已折叠（共 { $chars } 个字符）。
json-folded-lines = 为了让窗口保持流畅，部分内容已折叠（共 { $chars } 个字符，{ $lines } 行）。
json-show-all = 全部显示
json-fold = 折叠第 { $from } 到 { $to } 行
json-unfold = 展开 { $count } 行隐藏内容
json-lines-folded = … 已折叠 { $count } 行 …
json-more-lines = … 还有 { $count } 行被隐藏 …
json-more-chars = … 还有 { $count } 个字符被隐藏 …

## Who answers (Settings and the welcome)

provider-legend = 由谁回答
provider-hint-demo = 不使用 AI：一个固定的脚本演示 Ask First 如何在行动之前先问你。适合试用。
provider-hint-ollama = 用 Ollama 在这台电脑上运行的模型。你写的任何内容都不会离开这台电脑。
provider-hint-openai = 互联网上需要密钥的服务：OpenAI，或任何提供 OpenAI 兼容地址的服务。
provider-hint-anthropic = 互联网上需要密钥的服务：Anthropic（Claude）。
provider-set-at-start = 在 Ask First 启动时设定：{ $provider }
provider-looking = 正在这台电脑上查找 Ollama…
provider-installed-models = 已安装的模型
provider-not-installed = { $model }（未安装）
technical-details = 技术细节
provider-look-again = 再找一次
provider-address = 服务地址
provider-model = 模型
provider-api-key = API 密钥
provider-api-key-optional = API 密钥（如果服务需要）
provider-key-saved = 已保存一个密钥（输入新的可替换）
provider-key-paste = 粘贴你的密钥
provider-remove-key = 删除已保存的密钥
provider-use-this = 使用这个
connection-test = 测试连接
connection-testing = 正在测试…
connection-sending = 正在发送一个简短的问题…

## Your rules (Settings)

rules-heading = 你的规则
rules-added = 规则已添加。
rules-changed = 规则已更改。
rules-removed = 规则已删除。
# Followed by the rules file's path.
rules-intro = 助手可以不经询问就做的事、必须先问你的事，以及永远不能做的事。更改从助手的下一个操作开始生效；已经在等待的请求仍会等你回答。规则保存在一个文件里，你也可以手动编辑。
rules-file-where = 文件在哪里
rules-file-mistake = 你的规则文件无法读取或有错误，所以其中的规则都没有生效：在修正之前，Ask First 会在每个操作之前先问你，也不会在这里修改这个文件。请修正这个文件（或者删除它重新开始）。
rules-none = 没有规则：读取会直接执行，其他一切都会先问你。
rules-change = 更改
rules-remove = 删除
rules-as-written = 文件中的原文
rules-file-line = （{ $file } 的第 { $line } 行）
rules-by-hand = 这条规则是手写的，写法无法用这里的选项表示，所以要在文件本身里修改：{ $file }。
rules-by-hand-line = 这条规则是手写的，写法无法用这里的选项表示，所以要在文件本身里修改：{ $file }，第 { $line } 行。
rules-change-title = 更改这条规则
rules-add = 添加规则
rule-everywhere = 所有地方
rule-in-folder = 在一个文件夹里
rule-one-command = 一条命令
rule-one-site = 一个网站
rule-what-happens = 怎么处理
rule-allow = 总是允许，不用问
rule-ask = 总是先问我
rule-never = 永远不要
rule-to-what = 针对什么
rule-where = 在哪里
rule-folder = 文件夹（在你的文件夹之内）
rule-folder-example = 例如 Private 或 Photos/2024
rule-command = 命令的词
rule-command-example = 例如 git status
rule-command-more = 以及这些词后面的任何内容
rule-site = 网站
rule-site-example = 例如 example.com
rule-site-sub = 以及它的子域名（www.… 和其他的）
rule-choose = 请选择…
rule-save = 保存规则
rule-cancel = 取消

## MCP servers (Settings)

mcp-heading = 额外工具（MCP 服务器）
mcp-intro = 给助手提供更多工具的程序。它们提供的每个操作仍会先问你，除非你信任服务器自己的“只读”标记。
mcp-none = 还没有。
mcp-saved = MCP 服务器“{ $name }”已保存。下一个任务就可以使用它的工具。
mcp-removed = MCP 服务器“{ $name }”已删除。
mcp-trusted = 信任它标明哪些工具只读。
# Followed by the variables' names.
mcp-variables = 变量（值已隐藏）：
mcp-edit = 编辑
mcp-edit-label = 编辑 MCP 服务器 { $name }
mcp-remove-question = 删除它吗？
mcp-remove-yes = 是的，删除
mcp-keep = 保留
mcp-remove-label = 删除 MCP 服务器 { $name }
mcp-form-label = MCP 服务器
mcp-name = 名称（最多 40 个字母、数字、- 和 _）
mcp-command = 启动它的命令
mcp-command-example = npx -y @modelcontextprotocol/server-filesystem ~/Documents
mcp-command-hint = 含有空格的词要加引号：'My files'。
mcp-env = 环境变量
mcp-env-name = 变量名
mcp-env-name-example = NAME
mcp-env-value-of = { $name } 的值
mcp-env-value-of-unnamed = 变量的值
mcp-env-saved = 已保存（输入新的可替换）
mcp-env-value = 值
mcp-env-remove = 删除变量 { $name }
mcp-env-add = 添加变量
mcp-trust = 信任这个服务器的标记：它标明只读的工具会直接执行，不用问
mcp-save = 保存服务器
mcp-add = 添加 MCP 服务器

## Settings

settings-close = 关闭
settings-language = 语言
# $language is the name of the language now in use, in its own words.
settings-language-desktop = 与桌面相同（{ $language }）
settings-timeout = 等你回答多少秒后自动拒绝
settings-timeout-range = 等待时间请输入 { $min } 到 { $max } 之间的整数秒。
settings-notify = 有事需要你同意时发出通知
settings-notify-unfocused = 当 Ask First 在后台时
settings-notify-always = 总是
settings-notify-never = 从不
settings-notify-approve = 允许我在通知中批准
settings-notify-approve-new-files = 新建文件
settings-notify-approve-note = 这样，通知中会出现“批准”，用于在你的文件夹中新建文件。删除、命令、文件夹以外的任何操作，以及你的规则要求询问的操作，始终需要在卡片上决定。
settings-start-at-login = 登录时启动 Ask First
# $settings is a list of the settings below ("who answers and the model").
settings-fixed = 这些在 Ask First 启动时已设定，不能在这里更改：{ $settings }。
setting-provider = 由谁回答
setting-base-url = 服务地址
setting-model = 模型
setting-api-key = API 密钥
setting-timeout = 等待时间
setting-notify = 通知
settings-save = 保存
settings-saved = 已保存。下一个任务会使用这些设置。
# Followed by the folder's path.
settings-works-in = 助手的工作文件夹：
settings-show-welcome = 再次显示欢迎页
settings-grants = 在本次对话中，如果助手再次请求与下面完全相同的操作，将不再询问直接执行（当你开始或打开另一个对话，或关闭 Ask First 时结束）：
settings-grants-none = 没有：每个需要你同意的操作都会先问你。

## 这台电脑上另一个智能体发来的请求（收件箱）

card-eyebrow-external = 这台电脑上的另一个程序在请求
external-who-asks-title = 谁在请求
external-who-asks = { $agent }，在文件夹 { $folder } 中
external-who-asks-to-run = { $agent }，在文件夹 { $folder } 中，将运行：
external-tooltip = 这个请求来自 { $agent }，它是这台电脑上的另一个程序，不是 Ask First 自己的助手。它在自己的文件夹里工作，不是你为 Ask First 选择的那个文件夹。

## 这台电脑上的其他智能体（设置）

other-agents-heading = 这台电脑上的其他智能体
other-agents-gone-heading = 未获答复的请求
other-agents-gone-asked = { $agent } 请求：
other-agents-gone-asked-unknown = 另一个程序请求：
other-agents-gone-said = 你回答之前 Ask First 已关闭；{ $agent } 已不再等待此请求，且未被允许。
other-agents-gone-said-unknown = 你回答之前 Ask First 已关闭；发出请求的程序已不再等待此请求，且未被允许。
other-agents-gone-dismiss = 忽略
other-agents-gone-dismiss-label = 忽略 { $agent } 的这个请求
other-agents-gone-dismiss-label-unknown = 忽略这个请求
other-agents-gone-more = { $count ->
   *[other] 还有 { $count } 个类似的请求
}
other-agents-intro = 你在终端里运行的其他 AI 智能体也可以改为在这里、用同样的卡片来询问你。“连接”会把 Ask First 加入该智能体自己的设置；“断开”只会去掉这一项。
other-agents-not-found = 这台电脑上没有找到
other-agents-connected = 通过 Ask First 询问你
other-agents-not-connected = 未连接：它在自己的窗口里问你，而不是这里
other-agents-connect = 连接
other-agents-disconnect = 断开
other-agents-settings-file = 它的设置：{ $file }
other-agents-connect-label = 连接 { $name }
other-agents-disconnect-label = 断开 { $name }

## 活动：助手做过的每一项更改，以及撤销

activity-title = 活动
activity-open = 活动
activity-intro = 助手在所有对话中更改过的一切，最新的在最前面。你可以撤销一项更改，或撤销整个任务。
activity-search = 按文件名或文字搜索
activity-empty = 还没有任何更改。
activity-no-match = 没有与“{ $query }”相符的内容。
activity-close = 关闭
activity-undo = 撤销
activity-undo-task = 撤销这个任务
activity-confirm-title = 撤销会丢失一些内容
activity-confirm-yes = 仍然撤销
activity-confirm-no = 保持现状
activity-in-conversation = 在“{ $title }”中
activity-in-untitled = 在一个没有标题的对话中
activity-by-person = 你批准了它
activity-by-rule = 你的一条规则允许了它
activity-by-grant = 在那个对话中已允许
activity-by-default = 无需询问即被允许
activity-state-done = 已完成
activity-state-undone = 已撤销
activity-state-too-old = 太久了，无法撤销：它的副本为了节省空间已被清除
activity-state-cannot = 无法撤销
activity-card-said = 卡片上说：

# Settings → Other agents: Codex runs a hook only once the person trusts it in Codex.
other-agents-codex-trust = 只有在你信任 Ask First 的钩子之后，Codex 才会运行它：打开 Codex，输入 /hooks，然后在那里信任它。

## 设置：谁来做事（Ask First 自己的助手，或它托管的其他智能体程序）
worker-heading = 谁来做事
worker-intro = Ask First 自己的助手，或你已在这台电脑上使用的 AI 智能体程序。无论哪种，它对文件的改动都会先以卡片的形式交给你。此选择从这个对话的下一个任务开始生效。
worker-own = Ask First 自己的助手
worker-in-use = （使用中）
worker-command = 启动命令
worker-none-found = 这台电脑上没有找到其他智能体程序（Gemini CLI 对应程序 gemini，Claude 对应 claude-agent-acp）。
worker-use = 使用这个
worker-saved = 从下一个任务开始，这个对话将使用它。
worker-sign-in-gemini = 智能体 Gemini CLI 自己登录：在终端里运行一次 gemini 并选择登录方式（或设置 GEMINI_API_KEY）。Ask First 不会看到你的登录信息。
worker-sign-in-claude = 智能体 Claude 使用 Claude Code 的登录：在终端里运行一次 claude 并登录（或设置 ANTHROPIC_API_KEY）。Ask First 不会看到你的登录信息。
worker-not-shut-in = 尚未隔离：智能体 { $agent } 用自己的工具所做的事（它的命令，以及它自己读取或修改的文件）不受 Ask First 限制。你只能看到它请求许可的操作，它可能不经询问就读取此文件夹以外的文件。
worker-sign-in-other = 这个智能体自己登录：在终端里运行一次它并按步骤操作。Ask First 不会看到你的登录信息。
# $agent 是提出请求的智能体名称（"Gemini CLI"）。
approval-agent-asks = 由智能体 { $agent } 请求
