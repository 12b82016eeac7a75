//! Server-sent events both ways: reading a chatbot's stream, whose event
//! boundaries fall anywhere in the bytes as they arrive, and writing the
//! events the guard sends.

/// One event: its name (`event:`, None when it has none) and its data
/// (the `data:` lines joined by newlines).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub name: Option<String>,
    pub data: String,
}

/// Reads events out of bytes fed as they arrive.
#[derive(Debug, Default)]
pub struct Decoder {
    pending: Vec<u8>,
}

impl Decoder {
    /// The events completed by `bytes` (a blank line ends each).
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<Event> {
        self.pending.extend_from_slice(bytes);
        let mut events = Vec::new();
        while let Some((end, skip)) = blank_line(&self.pending) {
            let block: Vec<u8> = self.pending.drain(..end + skip).take(end).collect();
            if let Some(event) = parse_block(&String::from_utf8_lossy(&block)) {
                events.push(event);
            }
        }
        events
    }

    /// Whether bytes of an unfinished event are left (a stream that ends
    /// here was cut off).
    pub fn has_partial(&self) -> bool {
        self.pending.iter().any(|b| !b.is_ascii_whitespace())
    }
}

/// Where the first blank line starts, and its length.
fn blank_line(bytes: &[u8]) -> Option<(usize, usize)> {
    (0..bytes.len()).find_map(|i| {
        let rest = &bytes[i..];
        [&b"\r\n\r\n"[..], b"\n\n", b"\r\r"]
            .iter()
            .find(|end| rest.starts_with(end))
            .map(|end| (i, end.len()))
    })
}

fn parse_block(block: &str) -> Option<Event> {
    let mut name = None;
    let mut data: Vec<&str> = Vec::new();
    for line in block.lines() {
        if line.starts_with(':') {
            continue;
        }
        let (field, value) = line.split_once(':').unwrap_or((line, ""));
        let value = value.strip_prefix(' ').unwrap_or(value);
        match field {
            "event" => name = Some(value.to_string()),
            "data" => data.push(value),
            _ => {}
        }
    }
    (name.is_some() || !data.is_empty()).then(|| Event {
        name,
        data: data.join("\n"),
    })
}

/// An event as the guard writes it.
pub fn event(name: Option<&str>, data: &str) -> String {
    let mut text = String::new();
    if let Some(name) = name {
        text.push_str("event: ");
        text.push_str(name);
        text.push('\n');
    }
    for line in data.split('\n') {
        text.push_str("data: ");
        text.push_str(line);
        text.push('\n');
    }
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_split_anywhere_across_writes_come_out_whole() {
        let wire = "event: message_start\ndata: {\"a\":1}\n\n: a comment\ndata: [DONE]\r\n\r\n";
        for cut in 0..wire.len() {
            let mut decoder = Decoder::default();
            let mut events = decoder.feed(&wire.as_bytes()[..cut]);
            events.extend(decoder.feed(&wire.as_bytes()[cut..]));
            assert_eq!(
                events,
                vec![
                    Event {
                        name: Some("message_start".into()),
                        data: "{\"a\":1}".into()
                    },
                    Event {
                        name: None,
                        data: "[DONE]".into()
                    }
                ],
                "cut at {cut}"
            );
            assert!(!decoder.has_partial());
        }
    }

    #[test]
    fn an_event_cut_off_is_left_partial() {
        let mut decoder = Decoder::default();
        assert!(decoder.feed(b"data: {\"choi").is_empty());
        assert!(decoder.has_partial());
    }

    #[test]
    fn written_events_read_back() {
        let text = event(Some("ping"), "{}") + &event(None, "two\nlines");
        let events = Decoder::default().feed(text.as_bytes());
        assert_eq!(events[0].name.as_deref(), Some("ping"));
        assert_eq!(events[1].data, "two\nlines");
    }
}
