//! Whether a tool call runs, asks first, or is refused: the policy layers of DESIGN.md §4,
//! first match wins, and every verdict names the layer that made it.
//!
//! 1. **Hard denials** ([`HARD_DENIALS`]), which no rule or grant can override.
//! 2. **Session policy** `never`: a call that would ask is denied instead (applied to the final
//!    "ask" of the layers below, so what rules, grants or defaults allow still runs).
//! 3. **User rules** in `rules.toml` in the data folder: deny, then ask, then allow. A rule names a
//!    tool (or `*`) and optionally a glob on the call's main argument (a path relative to the
//!    workspace, a command line, a URL). A deny or ask rule matches when any main argument
//!    matches; an allow rule only when every main argument does. A rules file that cannot be
//!    read makes every call ask — never allow — until it is fixed.
//! 4. **Session grants** from "Allow for this session": exact tool and canonical arguments.
//! 5. **Tool defaults**: read-only tools run; everything else asks.

//!
//! Where things are: [`rules`] (the rules file and how a rule matches), [`editor`] (the file
//! edited from the window), [`words`] (a rule in a sentence), `grants` (session grants), `hard`
//! (the hard denials), and here the layered decision ([`Policy::decide`]).

mod choice;
pub mod editor;
mod grants;
mod hard;
pub mod kept;
pub mod rules;
mod template;
pub mod words;

pub use hard::HARD_DENIALS;
pub use kept::HiddenError;
pub use rules::{remove_rule, Rule, RuleKind, RuleSet, Rules, RulesError, RULES_TEMPLATE};

use crate::i18n::{self, tr, with_language, Arg, Language};
use crate::sync::MutexExt;
use askfirst_protocol::{Grant, PolicyLayer, Risk, SessionPolicy, Wording};
pub use grants::ChangeShape;
use grants::GrantedStates;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

/// What a tool's main argument is, which decides how globs match it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArgumentKind {
    /// A path: matched relative to the workspace, `*` stays within one folder, `**` crosses.
    Path,
    /// A text in the arguments of a tool Ask First does not know (an MCP tool) that names a
    /// path: judged by deny and ask rules and by the own-files denial (refusing is safe), but
    /// never the reason an allow rule applies, and not refused for lying outside the workspace
    /// (the server may have folders of its own).
    MentionedPath,
    /// A command line: `*` matches anything.
    Command,
    /// A URL: `*` matches anything.
    Url,
}

/// One main argument of a call, as the policy sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MainArgument {
    /// What kind of argument it is.
    pub kind: ArgumentKind,
    /// For paths: relative to the workspace with `/` separators (`.` for the workspace), each
    /// existing part spelled as it is on disk ([`crate::identity::real_spelling`]); otherwise
    /// the text as given.
    pub text: String,
    /// For paths: the spelling the model used, where it differs from `text` (other case on a
    /// case-insensitive file system). Deny and ask rules match either; allow rules need both.
    pub alias: Option<String>,
    /// For paths: where it resolves on disk.
    pub resolved: Option<PathBuf>,
    /// For paths: whether the call may act on everything inside this entry too, so that
    /// rules about anything inside it are about the call ([`Contents`]).
    pub contents: Contents,
}

/// Whether a call may act on everything inside a folder it names, as well as on the folder.
/// A folder moved takes what is in it along: a "never touch `Docs/Taxes`" rule forbids moving
/// `Docs`, and an "always ask" rule about it asks (see `Rule::about_contents` for how far a
/// folder is looked through).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Contents {
    /// The call acts on the entry itself only (a file written, a web address).
    No,
    /// Our own tool moves or trashes the folder with everything inside.
    Yes,
    /// Our own command names the folder: it may act on what is inside (`mv`, `rm -r`), but
    /// it runs in the sandbox, which hides every folder a deny rule names where commands are
    /// confined.
    OurCommand,
    /// Another program names the folder (another agent's command or tool, an MCP server's
    /// tool): it runs outside our sandbox and may act on anything inside.
    Outside,
    /// The folder our own command works in (the workspace, `.`), which it may act on all of
    /// without naming anything (`find -delete`, `grep -r`). Shut in, the command runs without
    /// what the rules keep ([`Policy::hidden_from_command`]; where that cannot be done it is
    /// not run), so this does not count. Not shut in, it counts with everything inside.
    Working,
}

/// The facts about one call that the policy decides on.
#[derive(Debug, Clone)]
pub struct CallFacts<'a> {
    /// The tool.
    pub tool_name: &'a str,
    /// Whether the tool only reads.
    pub read_only: bool,
    /// The call's risk.
    pub risk: Risk,
    /// Its main arguments.
    pub main_arguments: &'a [MainArgument],
    /// Its canonical arguments, if they have a canonical form.
    pub canonical_arguments: Option<&'a str>,
    /// The MCP server that provides the tool, when it is not built in.
    pub mcp_server: Option<&'a str>,
    /// What the call's target looked like when it was described
    /// ([`crate::tools::CallDescription::fingerprint`]): a grant covers only this state.
    pub fingerprint: Option<&'a str>,
}

/// The policy's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PolicyDecision {
    /// Run without asking.
    Allow,
    /// Ask the user first; `reason` is shown on the card.
    Ask {
        /// Why the user is asked, in plain words.
        reason: String,
    },
    /// Refuse without asking; `reason` is told to the model, `wording` shown to the person.
    Deny {
        /// Why it is refused, in English (for the model and the audit log).
        reason: String,
        /// The same reason as a sentence key, for the person in their language.
        wording: Wording,
    },
}

/// The [`Wording`] of a refusal: sentence `key` (dotted, as in `locales/*/app.ftl` with dashes)
/// with `args`.
pub(crate) fn refusal<const N: usize>(key: &str, args: [(&str, String); N]) -> Wording {
    Wording {
        key: key.to_owned(),
        args: args
            .into_iter()
            .map(|(name, value)| (name.to_owned(), value))
            .collect(),
    }
}

/// A decision and the layer that made it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// What to do.
    pub decision: PolicyDecision,
    /// Who decided.
    pub layer: PolicyLayer,
    /// For allows: why, in plain words (for the audit log).
    pub note: String,
    /// For an ask rule's "ask": that rule in its one-line form (`ask * "Work/Contracts/**"`),
    /// whose card, once approved, opens what it keeps to the command
    /// ([`Policy::hidden_from_command`]).
    pub asking_rule: Option<String>,
}

impl Verdict {
    fn allow(layer: PolicyLayer, note: impl Into<String>) -> Self {
        Self {
            decision: PolicyDecision::Allow,
            layer,
            note: note.into(),
            asking_rule: None,
        }
    }
    fn ask(layer: PolicyLayer, reason: impl Into<String>) -> Self {
        let reason = reason.into();
        Self {
            decision: PolicyDecision::Ask {
                reason: reason.clone(),
            },
            layer,
            note: reason,
            asking_rule: None,
        }
    }
    /// A refusal worded by `wording`; the model is told its English.
    fn deny(layer: PolicyLayer, wording: Wording) -> Self {
        Self::deny_as(layer, i18n::wording_in(Language::En, &wording), wording)
    }
    /// A refusal whose English (`reason`) is made apart from `wording` (one of its values is
    /// itself worded in the person's language).
    fn deny_as(layer: PolicyLayer, reason: String, wording: Wording) -> Self {
        Self {
            decision: PolicyDecision::Deny {
                reason: reason.clone(),
                wording,
            },
            layer,
            note: reason,
            asking_rule: None,
        }
    }
}

/// The policy in force for a session: rules, grants and the session policy. Shared by the
/// session's runs; all methods take `&self`.
#[derive(Debug)]
pub struct Policy {
    state: Mutex<PolicyState>,
    /// Ask First's own folder (settings, rules, logs), which the agent may never change, and
    /// the workspace inside it (if any), which it may.
    protected: Option<(PathBuf, PathBuf)>,
    /// The data folder's identity when the policy was made: still Ask First's own folder if
    /// something renamed it since (its path then leads elsewhere, or nowhere).
    data_id_at_start: Option<crate::identity::FileId>,
}

#[derive(Debug)]
struct PolicyState {
    session: SessionPolicy,
    rules: Rules,
    /// Each grant with the states of its target it covers (see [`CallFacts::fingerprint`]).
    grants: BTreeMap<(String, String), (Grant, GrantedStates)>,
}

impl Policy {
    /// A policy with `rules`, protecting `data_dir` (except the part that is the workspace,
    /// when the workspace lies inside it).
    pub fn new(rules: Rules, data_dir: Option<(&Path, &Path)>) -> Self {
        let protected = data_dir.map(|(data, workspace)| {
            let canon = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_owned());
            (canon(data), canon(workspace))
        });
        let data_id_at_start = protected
            .as_ref()
            .and_then(|(data, _)| crate::identity::FileId::of(data));
        Self {
            data_id_at_start,
            state: Mutex::new(PolicyState {
                session: SessionPolicy::Ask,
                rules,
                grants: BTreeMap::new(),
            }),
            protected,
        }
    }

    fn lock(&self) -> MutexGuard<'_, PolicyState> {
        self.state.lock_or_recover()
    }

    /// Replaces the rules (after the file changed).
    pub fn set_rules(&self, rules: Rules) {
        self.lock().rules = rules;
    }

    /// The rules in force, one line each (`deny write_file "Taxes/**"`), deny first.
    pub fn rules_summary(&self) -> Vec<String> {
        match &self.lock().rules {
            Rules::Broken(_) => Vec::new(),
            Rules::Loaded(set) => RuleKind::ALL
                .into_iter()
                .flat_map(|kind| set.of_kind(kind).iter().map(move |r| r.line(kind)))
                .collect(),
        }
    }

    /// The rules in force, deny first: each one's list and rule. `None` while the rules file
    /// is broken.
    pub fn rules_in_force(&self) -> Option<Vec<(RuleKind, Rule)>> {
        match &self.lock().rules {
            Rules::Broken(_) => None,
            Rules::Loaded(set) => Some(
                RuleKind::ALL
                    .into_iter()
                    .flat_map(|kind| set.of_kind(kind).iter().map(move |r| (kind, r.clone())))
                    .collect(),
            ),
        }
    }

    /// The places (canonical paths) that a command shut in in `workspace` is kept from, as its
    /// own view of the system has them hidden or read-only ([`kept::kept_places`]): what a deny
    /// rule about paths is about (every rule for all tools, a path rule for `run_command` or a
    /// file tool: [`kept::keeps`]), and what such an ask rule is about, except the ask rule
    /// `opened` (its one-line form, [`Verdict::asking_rule`]) when the person approved this very
    /// command on the card it made. A command an allow rule or a grant let run, or one approved
    /// on an ordinary card, is kept from all of them.
    ///
    /// # Errors
    /// [`HiddenError`] when more than [`kept::HIDDEN_CAP`] places would have to be kept, the
    /// workspace is too big to look through for a glob rule, or a folder on the way cannot be
    /// read: the command cannot be shut in without them, so it must not run.
    pub fn hidden_from_command(
        &self,
        workspace: &Path,
        opened: Option<&str>,
    ) -> Result<kept::KeptPlaces, HiddenError> {
        self.hidden_from(workspace, opened, false)
    }

    /// [`Self::hidden_from_command`] for a command tried first on a copy of the folder
    /// (`agent::try_first`): what an ask rule about *changing* files keeps is not kept from it
    /// (it can change only the copy, and its changes there are asked about on the card, by
    /// that rule); what a deny rule keeps, and what an ask rule about reading keeps, are.
    ///
    /// # Errors
    /// As [`Self::hidden_from_command`].
    pub fn hidden_from_tried_command(
        &self,
        workspace: &Path,
        opened: Option<&str>,
    ) -> Result<kept::KeptPlaces, HiddenError> {
        self.hidden_from(workspace, opened, true)
    }

    fn hidden_from(
        &self,
        workspace: &Path,
        opened: Option<&str>,
        tried_first: bool,
    ) -> Result<kept::KeptPlaces, HiddenError> {
        // The rules are copied out so that the look through the workspace (up to
        // [`kept::LOOK_CAP`] entries) holds no lock other decisions wait for.
        let kept: Vec<(kept::Keep, Rule)> = {
            let state = self.lock();
            let Rules::Loaded(set) = &state.rules else {
                return Ok(kept::KeptPlaces::default());
            };
            Self::keeping(set, opened, tried_first)
                .map(|(_, keep, rule)| (keep, rule.clone()))
                .collect()
        };
        let rules: Vec<(kept::Keep, &Rule)> =
            kept.iter().map(|(keep, rule)| (*keep, rule)).collect();
        kept::kept_places(&rules, workspace)
    }

    /// The rules that keep places from a command ([`Self::hidden_from_command`]), each with
    /// its kind and how it keeps, deny first.
    fn keeping<'a>(
        set: &'a RuleSet,
        opened: Option<&'a str>,
        tried_first: bool,
    ) -> impl Iterator<Item = (RuleKind, kept::Keep, &'a Rule)> {
        let keeps = |rule: &'a Rule| kept::keeps(rule).map(|keep| (keep, rule));
        set.deny
            .iter()
            .filter_map(keeps)
            .map(|(keep, rule)| (RuleKind::Deny, keep, rule))
            .chain(
                set.ask
                    .iter()
                    .filter(move |rule| opened != Some(rule.line(RuleKind::Ask).as_str()))
                    .filter_map(keeps)
                    .filter(move |(keep, _)| !(tried_first && *keep == kept::Keep::ReadOnly))
                    .map(|(keep, rule)| (RuleKind::Ask, keep, rule)),
            )
    }

    /// The sentences of the rules that keep places from a command shut in
    /// ([`Self::hidden_from_command`], `opened` as there), deny rules first, as the settings
    /// screen lists them ("Never touch anything in Private"), each with how it keeps its places
    /// from the command ([`kept::keeps`]); empty while the rules file is broken.
    pub fn kept_from_command(&self, opened: Option<&str>) -> Vec<(kept::Keep, String)> {
        self.kept_from(opened, false)
    }

    /// Whether the ask rule `line` (its one-line form, [`Verdict::asking_rule`]) is only about
    /// changing files (what it keeps from a command is kept read-only, [`kept::keeps`]): for a
    /// command tried first on a copy of the folder, such a rule asks on the card of the
    /// command's changes, not before the try.
    pub fn asks_only_about_changes(&self, line: &str) -> bool {
        let state = self.lock();
        let Rules::Loaded(set) = &state.rules else {
            return false;
        };
        set.ask
            .iter()
            .find(|rule| rule.line(RuleKind::Ask) == line)
            .is_some_and(|rule| kept::keeps(rule) == Some(kept::Keep::ReadOnly))
    }

    /// [`Self::kept_from_command`] for a command tried first on a copy of the folder (as
    /// [`Self::hidden_from_tried_command`] keeps them).
    pub fn kept_from_tried_command(&self, opened: Option<&str>) -> Vec<(kept::Keep, String)> {
        self.kept_from(opened, true)
    }

    fn kept_from(&self, opened: Option<&str>, tried_first: bool) -> Vec<(kept::Keep, String)> {
        let state = self.lock();
        let Rules::Loaded(set) = &state.rules else {
            return Vec::new();
        };
        Self::keeping(set, opened, tried_first)
            .map(|(kind, keep, rule)| (keep, rule.sentence(kind)))
            .collect()
    }

    /// The rules file's problem, if it has one.
    pub fn rules_error(&self) -> Option<RulesError> {
        match &self.lock().rules {
            Rules::Broken(e) => Some(e.clone()),
            Rules::Loaded(_) => None,
        }
    }

    /// The session policy.
    pub fn session_policy(&self) -> SessionPolicy {
        self.lock().session
    }

    /// Sets the session policy; it applies from the next decision.
    pub fn set_session_policy(&self, policy: SessionPolicy) {
        self.lock().session = policy;
    }

    /// Decides about one call.
    pub fn decide(&self, facts: &CallFacts<'_>) -> Verdict {
        if let Some(wording) = self.hard_denial(facts) {
            return Verdict::deny(PolicyLayer::HardDenial, wording);
        }
        let state = self.lock();
        let verdict = Self::below_session(&state, facts);
        match (&verdict.decision, state.session) {
            (PolicyDecision::Ask { .. }, SessionPolicy::Never) => Verdict::deny(
                PolicyLayer::SessionPolicy,
                refusal("refusal.dont_ask_now", []),
            ),
            (_, SessionPolicy::Ask | SessionPolicy::Never) => verdict,
        }
    }

    fn below_session(state: &PolicyState, facts: &CallFacts<'_>) -> Verdict {
        match &state.rules {
            Rules::Broken(error) => {
                return Verdict::ask(
                    PolicyLayer::UserRule,
                    match error {
                        RulesError::Read { path, detail } => tr(
                            "reason-rules_unreadable",
                            &[("path", Arg::from(path)), ("detail", Arg::from(detail))],
                        ),
                        RulesError::Invalid { path, detail } => tr(
                            "reason-rules_mistake",
                            &[("path", Arg::from(path)), ("detail", Arg::from(detail))],
                        ),
                    },
                )
            }
            Rules::Loaded(rules) => {
                // What is inside each argument, and the names a command gives, are looked at
                // once, for all the rules.
                let looked = rules::Looked::for_call(facts);
                if let Some(rule) = rules
                    .deny
                    .iter()
                    .find(|r| r.matches_any(facts, false, &looked))
                {
                    // The model is told the rule in English, the person in their language.
                    let in_english = with_language(Language::En, || rule.sentence(RuleKind::Deny));
                    return Verdict::deny_as(
                        PolicyLayer::UserRule,
                        i18n::wording_in(
                            Language::En,
                            &refusal("refusal.rule_forbids", [("rule", in_english)]),
                        ),
                        refusal(
                            "refusal.rule_forbids",
                            [("rule", rule.sentence(RuleKind::Deny))],
                        ),
                    );
                }
                if let Some(rule) = rules
                    .ask
                    .iter()
                    .find(|r| r.matches_any(facts, true, &looked))
                {
                    return Verdict {
                        asking_rule: Some(rule.line(RuleKind::Ask)),
                        ..Verdict::ask(
                            PolicyLayer::UserRule,
                            tr(
                                "reason-rule-asks",
                                &[("rule", Arg::from(rule.sentence(RuleKind::Ask)))],
                            ),
                        )
                    };
                }
                if let Some(rule) = rules.allow.iter().find(|r| r.matches_all(facts)) {
                    return Verdict::allow(
                        PolicyLayer::UserRule,
                        tr(
                            "reason-rule-allows",
                            &[("rule", Arg::from(rule.sentence(RuleKind::Allow)))],
                        ),
                    );
                }
            }
        }
        if let Some(canonical) = facts.canonical_arguments {
            let granted = state
                .grants
                .get(&(facts.tool_name.to_owned(), canonical.to_owned()))
                .is_some_and(|(_, states)| states.covers(facts.fingerprint));
            if granted {
                return Verdict::allow(PolicyLayer::SessionGrant, tr("reason-granted", &[]));
            }
        }
        if let Some(server) = facts.mcp_server {
            return match (facts.read_only, facts.risk) {
                (true, Risk::Low) => Verdict::allow(
                    PolicyLayer::ToolDefault,
                    tr("reason-mcp-reads", &[("server", Arg::from(server))]),
                ),
                _ => Verdict::ask(
                    PolicyLayer::ToolDefault,
                    tr("reason-mcp-asks", &[("server", Arg::from(server))]),
                ),
            };
        }
        match (facts.read_only, facts.risk) {
            (true, Risk::Low) => Verdict::allow(PolicyLayer::ToolDefault, tr("reason-reads", &[])),
            (true, Risk::Medium | Risk::High) => {
                Verdict::ask(PolicyLayer::ToolDefault, tr("reason-reads-risky", &[]))
            }
            (false, Risk::Low | Risk::Medium) => {
                Verdict::ask(PolicyLayer::ToolDefault, tr("reason-changes", &[]))
            }
            (false, Risk::High) => {
                Verdict::ask(PolicyLayer::ToolDefault, tr("reason-high_risk", &[]))
            }
        }
    }
}
