//! A provider that plays a scenario file, and the built-in offline demo.
//!
//! Scenario format (DESIGN.md §6):
//! `{"turns": [{"say": "text", "tool_calls": [{"name": "write_file", "arguments": {...}}]}]}`.
//! One turn is played per model call, in order; a turn without tool calls ends the run; a call
//! past the last turn fails loudly with [`ProviderError::ScriptExhausted`]. Tool-call ids are
//! generated (`call_<n>`) unless given as `"id"`. `"arguments"` is kept as the exact JSON text
//! of the file (so big integers and key order survive); `"arguments_json"` (a string) may be
//! given instead to send text that is not valid JSON.

use crate::i18n::{tr, Arg};
use crate::provider::{DeltaSink, Message, ModelTurn, Provider, ProviderError, ToolCall};
use crate::tools::ToolSpec;
use async_trait::async_trait;
use serde::Deserialize;
use serde_json::value::RawValue;
use std::path::Path;

/// A parsed scenario file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// The turns, played in order.
    pub turns: Vec<ScenarioTurn>,
}

/// One scripted model turn.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioTurn {
    /// What the model says.
    #[serde(default)]
    pub say: Option<String>,
    /// The tool calls it makes.
    #[serde(default)]
    pub tool_calls: Vec<ScenarioToolCall>,
    /// Milliseconds the "model" thinks before answering (default 0), like a slow provider;
    /// Stop ends the wait.
    #[serde(default)]
    pub delay_ms: u64,
}

/// One scripted tool call.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioToolCall {
    /// The tool-call id; generated when absent.
    #[serde(default)]
    pub id: Option<String>,
    /// The tool's name.
    pub name: String,
    /// The arguments, kept as their exact JSON text.
    #[serde(default)]
    pub arguments: Option<Box<RawValue>>,
    /// Raw argument text, used instead of `arguments` (may be invalid JSON on purpose).
    #[serde(default)]
    pub arguments_json: Option<String>,
}

impl Scenario {
    /// Parses a scenario from JSON text.
    ///
    /// # Errors
    /// [`ProviderError::BadScenario`] naming what is wrong.
    pub fn parse(text: &str) -> Result<Self, ProviderError> {
        let scenario: Scenario =
            serde_json::from_str(text).map_err(|e| ProviderError::BadScenario {
                detail: format!("it is not valid ({e})."),
            })?;
        if scenario.turns.is_empty() {
            return Err(ProviderError::BadScenario {
                detail: "it has no turns.".into(),
            });
        }
        Ok(scenario)
    }

    /// Reads and parses a scenario file.
    ///
    /// # Errors
    /// [`ProviderError::BadScenario`] when the file cannot be read or parsed.
    pub fn load(path: &Path) -> Result<Self, ProviderError> {
        let text = std::fs::read_to_string(path).map_err(|e| ProviderError::BadScenario {
            detail: format!("{} cannot be read ({e}).", path.display()),
        })?;
        Self::parse(&text)
    }
}

/// Plays a [`Scenario`], one turn per model call.
pub struct ScriptedProvider {
    name: ScriptName,
    turns: Vec<ModelTurn>,
    delays: Vec<std::time::Duration>,
}

impl ScriptedProvider {
    /// A provider playing `scenario`, shown to the person as `name`.
    pub fn new(name: impl Into<String>, scenario: &Scenario) -> Self {
        Self::named(ScriptName::Given(name.into()), scenario)
    }

    /// The provider of a scenario file (the file's path is in its name for the person).
    pub fn from_file(path: &Path, scenario: &Scenario) -> Self {
        Self::named(ScriptName::File(path.display().to_string()), scenario)
    }

    fn named(name: ScriptName, scenario: &Scenario) -> Self {
        let mut generated = 0usize;
        let turns = scenario
            .turns
            .iter()
            .map(|turn| ModelTurn {
                text: turn.say.clone(),
                tool_calls: turn
                    .tool_calls
                    .iter()
                    .map(|call| {
                        generated += 1;
                        ToolCall {
                            id: call
                                .id
                                .clone()
                                .unwrap_or_else(|| format!("call_{generated}")),
                            name: call.name.clone(),
                            arguments_json: match (&call.arguments_json, &call.arguments) {
                                (Some(raw), _) => raw.clone(),
                                (None, Some(value)) => value.get().to_owned(),
                                (None, None) => "{}".to_owned(),
                            },
                        }
                    })
                    .collect(),
            })
            .collect();
        Self {
            name,
            turns,
            delays: scenario
                .turns
                .iter()
                .map(|turn| std::time::Duration::from_millis(turn.delay_ms))
                .collect(),
        }
    }

    /// The built-in offline demo: lists the workspace (allowed), then asks to write
    /// `summary.txt` and to move `old-report.txt` into `Archive/`, then answers.
    pub fn demo() -> Self {
        Self::named(ScriptName::Demo, &demo_scenario())
    }
}

/// Who answers, for the person: worded when it is shown, in the language then in force.
enum ScriptName {
    /// A name given by the code that made it (tests), shown as it is.
    Given(String),
    /// The built-in offline demo.
    Demo,
    /// A scenario file (its path).
    File(String),
}

#[async_trait]
impl Provider for ScriptedProvider {
    fn display_name(&self) -> String {
        match &self.name {
            ScriptName::Given(name) => name.clone(),
            ScriptName::Demo => tr("provider-name-demo", &[]),
            ScriptName::File(path) => tr("provider-name-scenario", &[("path", Arg::from(path))]),
        }
    }

    /// Plays the turn after the last one the conversation holds since the person's latest
    /// message: the position comes from `messages`, not from a count kept in memory, so a run
    /// resumed after a restart ([`crate::sessions::interrupted`]) goes on with the next turn.
    async fn step(
        &self,
        messages: &[Message],
        _tools: &[ToolSpec],
        _deltas: &DeltaSink<'_>,
    ) -> Result<ModelTurn, ProviderError> {
        let index = position(messages);
        if let Some(delay) = self.delays.get(index).filter(|d| !d.is_zero()) {
            tokio::time::sleep(*delay).await;
        }
        self.turns
            .get(index)
            .cloned()
            .ok_or(ProviderError::ScriptExhausted {
                step: index + 1,
                turns: self.turns.len(),
            })
    }
}

/// Which turn of a scenario answers `messages`: how many model turns the conversation holds
/// after the person's latest message (each step of a run adds exactly one).
fn position(messages: &[Message]) -> usize {
    messages
        .iter()
        .rev()
        .take_while(|m| !matches!(m, Message::User { .. }))
        .filter(|m| matches!(m, Message::Assistant { .. }))
        .count()
}

/// The files the demo folder starts with: (relative path, content).
pub const DEMO_FILES: &[(&str, &str)] = &[
    ("shopping-list.txt", "Milk\nEggs\nBread\nTomatoes\nCoffee\n"),
    (
        "meeting-notes.txt",
        "Team meeting, Monday\n- Budget review moved to Thursday\n- Anna presents the new \
         timeline\n- Everyone sends holiday plans by Friday\n",
    ),
    (
        "old-report.txt",
        "Quarterly report (draft from last year)\nThis file is out of date.\n",
    ),
];

/// The demo scenario played when no provider is configured, in the language in force (its
/// words are Ask First's own, the `demo-*` messages of `locales/*/app.ftl`; the files' names
/// are the demo folder's and stay as they are).
pub fn demo_scenario() -> Scenario {
    let text = serde_json::json!({
        "turns": [
            {
                "say": tr("demo-say-hello", &[]),
                "tool_calls": [{"name": "list_directory", "arguments": {"path": "."}}]
            },
            {
                "say": tr("demo-say-summary", &[]),
                "tool_calls": [{"name": "write_file", "arguments": {"path": "summary.txt", "content": format!("{}\n", tr("demo-summary", &[]))}}]
            },
            {
                "say": tr("demo-say-archive", &[]),
                "tool_calls": [{"name": "move_path", "arguments": {"from": "old-report.txt", "to": "Archive/"}}]
            },
            {
                "say": tr("demo-say-done", &[])
            }
        ]
    })
    .to_string();
    // Built from the catalogue's sentences, which are text values: parsing it cannot fail, and
    // a test checks it in every language.
    Scenario::parse(&text).unwrap_or(Scenario { turns: Vec::new() })
}

/// Creates the demo folder at `dir` with [`DEMO_FILES`] if it does not exist yet; an existing
/// folder is left as it is (the user's changes are kept).
///
/// # Errors
/// The I/O error of creating the folder or a file.
pub fn ensure_demo_folder(dir: &Path) -> std::io::Result<()> {
    if dir.exists() {
        return Ok(());
    }
    std::fs::create_dir_all(dir)?;
    for (name, content) in DEMO_FILES {
        std::fs::write(dir.join(name), content)?;
    }
    Ok(())
}
