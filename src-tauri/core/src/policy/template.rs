//! The text of a new rules file: how to write rules, with examples (all commented out).

/// The text written to a new rules file, explaining how to write rules.
pub const RULES_TEMPLATE: &str = r##"# Ask First rules: what the agent may do without asking, what it must always ask
# about, and what it may never do. Checked in this order: deny, then ask, then allow;
# the first rule that matches decides. Without a matching rule, reading runs and
# everything else asks.
#
# `tool` is a tool name (or "*" for every tool). `match` is optional:
# - for files, a path relative to your workspace folder ("*" stays in one folder, "**"
#   goes into sub-folders). A rule on a folder holds however the folder is reached
#   (another spelling of its name, a command or an MCP tool that names it).
# - for run_command, a command: words, each of which may hold "*" ("git status*" is
#   `git status` with any further words). An allow rule allows a command line only when
#   every command on it matches and it uses no other shell features (no `;` with another
#   command, no `>`, no `$(…)`); a deny or ask rule matches any command on the line,
#   also inside `sh -c`, after `sudo` or `xargs`.
# - for fetch_url, a web address: scheme, host and path are matched each on its own
#   ("http://*.example.com/*" is any page of example.com and its sub-domains, never
#   another host). Addresses on this computer or your local network always ask, unless
#   a rule names that address exactly ("http://localhost:3000/*").
#
# Examples (remove the "#" to use one):
#
# [[deny]]
# tool = "write_file"
# match = "Taxes/**"
#
# [[ask]]
# tool = "list_directory"
# match = "Private/**"
#
# [[allow]]
# tool = "write_file"
# match = "Drafts/*.txt"
#
# [[allow]]
# tool = "run_command"
# match = "git status*"
"##;
