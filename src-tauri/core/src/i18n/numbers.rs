//! Numbers as each language writes them: Brazilian Portuguese groups digits with `.` and
//! writes the decimal sign as `,` (`1.234,5`, CLDR's `latn` symbols for `pt`); English and
//! Chinese write the digits plainly with a `.` decimal sign (`1234.5`), as Ask First's English
//! sentences always have (the tests pin them, e.g. "asked for 5000 actions"). Fluent itself
//! prints numbers plainly; this is its formatter hook.

use super::Language;
use fluent_bundle::FluentValue;
use intl_memoizer::concurrent::IntlLangMemoizer;
use unic_langid::LanguageIdentifier;

/// The language identifier of `language` for the plural rules.
pub(super) fn langid(language: Language) -> LanguageIdentifier {
    let tag = match language {
        Language::En => "en",
        Language::ZhCn => "zh-CN",
        Language::PtBr => "pt-BR",
    };
    tag.parse().unwrap_or_default()
}

/// The bundle's formatter for `language`.
pub(super) fn formatter(
    language: Language,
) -> fn(&FluentValue<'_>, &IntlLangMemoizer) -> Option<String> {
    match language {
        Language::En | Language::ZhCn => |value, _| number(value, None, '.'),
        Language::PtBr => |value, _| number(value, Some('.'), ','),
    }
}

fn number(value: &FluentValue<'_>, group: Option<char>, decimal: char) -> Option<String> {
    let FluentValue::Number(n) = value else {
        return None;
    };
    Some(grouped(n.value, group, decimal))
}

/// `value` with `group` (if any) between each three digits of its whole part and `decimal`
/// before its fraction (at most three digits, trailing zeros dropped).
pub fn grouped(value: f64, group: Option<char>, decimal: char) -> String {
    let plain = format!("{:.3}", value.abs());
    let (whole, fraction) = plain.split_once('.').unwrap_or((&plain, ""));
    let fraction = fraction.trim_end_matches('0');
    let mut out = String::new();
    if value < 0.0 && (whole != "0" || !fraction.is_empty()) {
        out.push('-');
    }
    for (i, digit) in whole.chars().enumerate() {
        if let Some(group) = group.filter(|_| i > 0 && (whole.len() - i) % 3 == 0) {
            out.push(group);
        }
        out.push(digit);
    }
    if !fraction.is_empty() {
        out.push(decimal);
        out.push_str(fraction);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::grouped;

    #[test]
    fn groups_and_decimals_follow_the_language() {
        assert_eq!(grouped(1234567.0, Some(','), '.'), "1,234,567");
        assert_eq!(grouped(1234.5, Some('.'), ','), "1.234,5");
        assert_eq!(grouped(12.0, Some('.'), ','), "12");
        assert_eq!(grouped(0.25, None, '.'), "0.25");
        assert_eq!(grouped(-1000.0, None, '.'), "-1000");
    }
}
