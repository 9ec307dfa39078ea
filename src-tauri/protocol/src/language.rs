//! The languages the window and its messages can be shown in.
use serde::{Deserialize, Serialize};
use ts_rs::TS;
/// A language Ask First speaks; its serialized form is the BCP 47 tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
pub enum Language {
    /// English.
    #[serde(rename = "en")]
    En,
    /// Simplified Chinese.
    #[serde(rename = "zh-CN")]
    ZhCn,
    /// Brazilian Portuguese.
    #[serde(rename = "pt-BR")]
    PtBr,
}
