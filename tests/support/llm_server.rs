//! An in-process scripted HTTP/1.1 server on 127.0.0.1 that speaks just
//! enough of the OpenAI-compatible and Anthropic protocols for the real
//! client to talk to it. Replies come from per-path queues (for scripted
//! sequences: malformed then good, 429 then 200) and then from a responder
//! function that looks at the request (for concurrent pipelines whose
//! requests arrive in any order). Never touches the internet.
#![allow(dead_code)]

use std::collections::{HashMap, VecDeque};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use serde_json::{Value, json};

pub const OPENAI_PATH: &str = "/v1/chat/completions";
pub const ANTHROPIC_PATH: &str = "/v1/messages";
pub const EMBEDDINGS_PATH: &str = "/v1/embeddings";

#[derive(Clone, Debug)]
pub enum Action {
    Respond {
        status: u16,
        headers: Vec<(String, String)>,
        body: String,
    },
    /// Waits, then responds.
    Delay(Duration, Box<Action>),
    /// Sends the status line, headers and half the promised body, then
    /// closes the connection.
    DropMidResponse,
    /// A `text/event-stream` reply: `events` (each whole, in wire text)
    /// written in pieces that cut across event boundaries, `pause` between
    /// writes; with `cut_after`, the connection closes in the middle of
    /// that event instead of finishing.
    Stream {
        events: Vec<String>,
        pause: Duration,
        cut_after: Option<usize>,
    },
}

/// One server-sent event in wire text.
pub fn sse(name: Option<&str>, data: &Value) -> String {
    match name {
        Some(name) => format!("event: {name}\ndata: {data}\n\n"),
        None => format!("data: {data}\n\n"),
    }
}

/// Words of `text` with their spaces, as a chatbot streams them.
pub fn pieces(text: &str) -> Vec<String> {
    text.split_inclusive(' ').map(str::to_string).collect()
}

/// An OpenAI chat-completions stream of `text`, chunk by chunk.
pub fn openai_stream(text: &str) -> Vec<String> {
    let chunk = |delta: Value, finish: Value| {
        sse(
            None,
            &json!({"id": "chatcmpl-scripted", "object": "chat.completion.chunk",
                    "created": 1, "model": "chat-model",
                    "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}),
        )
    };
    let mut events = vec![chunk(
        json!({"role": "assistant", "content": ""}),
        Value::Null,
    )];
    events.extend(
        pieces(text)
            .iter()
            .map(|p| chunk(json!({"content": p}), Value::Null)),
    );
    events.push(chunk(json!({}), json!("stop")));
    events.push("data: [DONE]\n\n".to_string());
    events
}

/// An Anthropic Messages API reply whose text is `text`.
pub fn anthropic_reply(text: &str) -> Action {
    ok(json!({
        "id": "msg_scripted", "type": "message", "role": "assistant", "model": "chat-model",
        "content": [{"type": "text", "text": text}],
        "stop_reason": "end_turn", "stop_sequence": null,
        "usage": {"input_tokens": 12, "output_tokens": 7}
    }))
}

/// An Anthropic Messages API stream of `text`, event by event.
pub fn anthropic_stream(text: &str) -> Vec<String> {
    let mut events = vec![
        sse(
            Some("message_start"),
            &json!({"type": "message_start", "message": {
                "id": "msg_scripted", "type": "message", "role": "assistant",
                "model": "chat-model", "content": [], "stop_reason": null,
                "stop_sequence": null, "usage": {"input_tokens": 12, "output_tokens": 1}}}),
        ),
        sse(
            Some("content_block_start"),
            &json!({"type": "content_block_start", "index": 0,
                    "content_block": {"type": "text", "text": ""}}),
        ),
        sse(Some("ping"), &json!({"type": "ping"})),
    ];
    events.extend(pieces(text).iter().map(|p| {
        sse(
            Some("content_block_delta"),
            &json!({"type": "content_block_delta", "index": 0,
                    "delta": {"type": "text_delta", "text": p}}),
        )
    }));
    events.push(sse(
        Some("content_block_stop"),
        &json!({"type": "content_block_stop", "index": 0}),
    ));
    events.push(sse(
        Some("message_delta"),
        &json!({"type": "message_delta",
                "delta": {"stop_reason": "end_turn", "stop_sequence": null},
                "usage": {"output_tokens": 7}}),
    ));
    events.push(sse(Some("message_stop"), &json!({"type": "message_stop"})));
    events
}

pub fn ok(body: Value) -> Action {
    Action::Respond {
        status: 200,
        headers: vec![],
        body: body.to_string(),
    }
}

/// An OpenAI chat-completions reply whose message content is `content`.
pub fn openai_reply(content: &str) -> Action {
    ok(json!({
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": content}}]
    }))
}

/// An OpenAI chat-completions reply carrying `json` as its content.
pub fn openai_json(json: &Value) -> Action {
    openai_reply(&json.to_string())
}

/// An Anthropic messages reply whose forced tool `tool` carries `input`.
pub fn anthropic_tool_reply(tool: &str, input: Value) -> Action {
    ok(json!({
        "type": "message",
        "stop_reason": "tool_use",
        "content": [
            {"type": "text", "text": "Here you go."},
            {"type": "tool_use", "id": "toolu_1", "name": tool, "input": input}
        ]
    }))
}

#[derive(Debug, Clone)]
pub struct Recorded {
    pub path: String,
    pub headers: HashMap<String, String>,
    pub body: Value,
}

impl Recorded {
    /// The text of every message of the request (system and user), joined.
    pub fn prompt_text(&self) -> String {
        let mut text = String::new();
        if let Some(system) = self.body.get("system").and_then(Value::as_str) {
            text.push_str(system);
            text.push('\n');
        }
        for message in self.body["messages"].as_array().into_iter().flatten() {
            match &message["content"] {
                Value::String(s) => text.push_str(s),
                Value::Array(parts) => {
                    for part in parts {
                        if let Some(s) = part["text"].as_str() {
                            text.push_str(s);
                        }
                    }
                }
                _ => {}
            }
            text.push('\n');
        }
        text
    }

    /// The user prompt: the last message's text.
    pub fn user_prompt(&self) -> String {
        let Some(last) = self.body["messages"].as_array().and_then(|m| m.last()) else {
            return String::new();
        };
        match &last["content"] {
            Value::String(s) => s.clone(),
            Value::Array(parts) => parts.iter().filter_map(|p| p["text"].as_str()).collect(),
            _ => String::new(),
        }
    }
}

/// Answers a request that no queued script covers.
pub type Responder = Arc<dyn Fn(&Recorded) -> Action + Send + Sync>;

#[derive(Default)]
struct State {
    scripts: HashMap<String, VecDeque<Action>>,
    requests: Vec<Recorded>,
    connections: usize,
    responder: Option<Responder>,
    latency: Duration,
}

pub struct Server {
    pub url: String,
    state: Arc<Mutex<State>>,
    active: Arc<AtomicUsize>,
    max_active: Arc<AtomicUsize>,
}

impl Server {
    pub fn start() -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let url = format!("http://{}", listener.local_addr().expect("addr"));
        let state = Arc::new(Mutex::new(State::default()));
        let active = Arc::new(AtomicUsize::new(0));
        let max_active = Arc::new(AtomicUsize::new(0));
        let (s, a, m) = (state.clone(), active.clone(), max_active.clone());
        thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let (s, a, m) = (s.clone(), a.clone(), m.clone());
                thread::spawn(move || serve(stream, &s, &a, &m));
            }
        });
        Server {
            url,
            state,
            active,
            max_active,
        }
    }

    /// Queues replies for `path`, answered in order before the responder.
    pub fn script(&self, path: &str, actions: Vec<Action>) {
        self.state
            .lock()
            .unwrap()
            .scripts
            .entry(path.to_string())
            .or_default()
            .extend(actions);
    }

    /// Answers every request without a queued reply.
    pub fn respond_with(&self, responder: impl Fn(&Recorded) -> Action + Send + Sync + 'static) {
        self.state.lock().unwrap().responder = Some(Arc::new(responder));
    }

    /// A fixed wait before every reply.
    pub fn set_latency(&self, latency: Duration) {
        self.state.lock().unwrap().latency = latency;
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.state.lock().unwrap().requests.clone()
    }

    pub fn connections(&self) -> usize {
        self.state.lock().unwrap().connections
    }

    /// The most requests ever answered at the same time.
    pub fn max_concurrent(&self) -> usize {
        self.max_active.load(Ordering::SeqCst)
    }

    pub fn active(&self) -> usize {
        self.active.load(Ordering::SeqCst)
    }
}

/// Serves one connection. `active` counts requests being answered: from the
/// moment a whole request is read until its reply starts (so a connection the
/// client has finished with never counts).
fn serve(stream: TcpStream, state: &Mutex<State>, active: &AtomicUsize, max_active: &AtomicUsize) {
    state.lock().unwrap().connections += 1;
    let mut reader = BufReader::new(stream.try_clone().expect("clone"));
    let mut line = String::new();
    if reader.read_line(&mut line).unwrap_or(0) == 0 {
        return;
    }
    let path = line.split_whitespace().nth(1).unwrap_or("").to_string();
    let mut headers = HashMap::new();
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).unwrap_or(0) == 0 {
            return;
        }
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            headers.insert(name.trim().to_ascii_lowercase(), value.trim().to_string());
        }
    }
    let length: usize = headers
        .get("content-length")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    if reader.read_exact(&mut body).is_err() {
        return;
    }
    let body = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let recorded = Recorded {
        path: path.clone(),
        headers,
        body,
    };
    let (queued, responder, latency) = {
        let mut state = state.lock().unwrap();
        state.requests.push(recorded.clone());
        let queued = state.scripts.get_mut(&path).and_then(VecDeque::pop_front);
        (queued, state.responder.clone(), state.latency)
    };
    let action = queued
        .or_else(|| responder.map(|r| r(&recorded)))
        .unwrap_or(Action::Respond {
            status: 404,
            headers: vec![],
            body: "no scripted response".into(),
        });
    let action = if latency.is_zero() {
        action
    } else {
        Action::Delay(latency, Box::new(action))
    };
    let now = active.fetch_add(1, Ordering::SeqCst) + 1;
    max_active.fetch_max(now, Ordering::SeqCst);
    perform(stream, action, active);
}

fn perform(mut stream: TcpStream, action: Action, active: &AtomicUsize) {
    if !matches!(action, Action::Delay(..)) {
        active.fetch_sub(1, Ordering::SeqCst);
    }
    match action {
        Action::Delay(wait, then) => {
            thread::sleep(wait);
            perform(stream, *then, active);
        }
        Action::Respond {
            status,
            headers,
            body,
        } => {
            let mut head = format!(
                "HTTP/1.1 {status} Scripted\r\nContent-Type: application/json\r\n\
                 Content-Length: {}\r\nConnection: close\r\n",
                body.len()
            );
            for (name, value) in headers {
                head.push_str(&format!("{name}: {value}\r\n"));
            }
            head.push_str("\r\n");
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(body.as_bytes());
            let _ = stream.flush();
        }
        Action::Stream {
            events,
            pause,
            cut_after,
        } => {
            let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\
                        Cache-Control: no-cache\r\nConnection: close\r\n\r\n";
            if stream.write_all(head.as_bytes()).is_err() {
                return;
            }
            let mut wire = String::new();
            for (i, event) in events.iter().enumerate() {
                if cut_after == Some(i) {
                    wire.push_str(&event[..event.len() / 2]);
                    break;
                }
                wire.push_str(event);
            }
            // Pieces of 7 bytes cut every event boundary somewhere.
            for piece in wire.as_bytes().chunks(7) {
                if stream
                    .write_all(piece)
                    .and_then(|()| stream.flush())
                    .is_err()
                {
                    return;
                }
                thread::sleep(pause);
            }
            let _ = stream.shutdown(std::net::Shutdown::Both);
        }
        Action::DropMidResponse => {
            let _ = stream.write_all(
                b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\
                  Content-Length: 400\r\nConnection: close\r\n\r\n{\"choices\": [",
            );
            let _ = stream.flush();
            let _ = stream.shutdown(std::net::Shutdown::Both);
        }
    }
}

/// A client of `server` for tests: OpenAI protocol, no key, quick retries,
/// no proxy, caching in `cache` when given.
pub fn scripted_client(
    server: &Server,
    cache: Option<&std::path::Path>,
) -> precept::llm::LlmClient {
    use precept::llm::{ClientOptions, LlmClient, Mode, Profile, Protocol, RetryPolicy};
    let mut profile = Profile::new("scripted", Protocol::OpenAi, &server.url, "scripted-model");
    profile.api_key_env = None;
    profile.timeout = Duration::from_secs(10);
    let options = ClientOptions {
        mode: Mode::Live,
        cache_dir: cache.map(std::path::Path::to_path_buf),
        retry: RetryPolicy {
            max_retries: 1,
            base_delay: Duration::from_millis(10),
            max_delay: Duration::from_millis(50),
        },
        env: Arc::new(|_: &str| None),
        use_env_proxy: false,
    };
    LlmClient::new(profile, options).expect("client")
}

/// Whether a request is the vocabulary pass's (one section of the document)
/// rather than a span's.
pub fn is_vocabulary_request(request: &Recorded) -> bool {
    request
        .user_prompt()
        .contains("The section's spans, one a line")
}

/// A vocabulary-pass reply that proposes nothing (spans are then formalized
/// on their own, as before the pass).
pub fn empty_vocabulary() -> Action {
    openai_json(&serde_json::json!({"types": [], "variables": []}))
}
