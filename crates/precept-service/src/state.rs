//! What every request shares: the model being served (swapped atomically
//! on reload), why the last load failed, the metrics, the queue limit and
//! the translator.

use super::admission::Admission;
use super::metrics::Metrics;
use super::options::ServeOptions;
use super::served_model::ServedModel;
use crate::error::Error;
use precept_engine::llm::LlmClient;
use std::sync::{Arc, Mutex, RwLock};

pub struct ServiceState {
    pub options: ServeOptions,
    current: RwLock<Option<Arc<ServedModel>>>,
    /// Why the newest load failed (cleared by a load that succeeds).
    load_error: Mutex<Option<String>>,
    pub metrics: Metrics,
    pub admission: Arc<Admission>,
    /// The client that translates answers, or why there is none.
    pub translator: Result<Arc<LlmClient>, Arc<Error>>,
    /// Held while a reload runs, so reloads never overlap.
    pub reloading: Mutex<()>,
}

impl ServiceState {
    pub fn new(options: ServeOptions, translator: Result<Arc<LlmClient>, Error>) -> ServiceState {
        let limit = options.workers.max(1) + options.queue;
        ServiceState {
            options,
            current: RwLock::new(None),
            load_error: Mutex::new(Some("the model is loading".into())),
            metrics: Metrics::default(),
            admission: Admission::new(limit),
            translator: translator.map_err(Arc::new),
            reloading: Mutex::new(()),
        }
    }

    /// The model requests arriving now run against.
    pub fn current(&self) -> Option<Arc<ServedModel>> {
        self.current
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Puts `model` in service; requests already running keep the old one.
    pub fn swap_in(&self, model: ServedModel) {
        let old = self
            .current
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .replace(Arc::new(model));
        *self.load_error.lock().unwrap_or_else(|e| e.into_inner()) = None;
        // The old pool stops once its last request lets go of it.
        drop(old);
    }

    pub fn load_failed(&self, reason: String) {
        *self.load_error.lock().unwrap_or_else(|e| e.into_inner()) = Some(reason);
    }

    pub fn load_error(&self) -> Option<String> {
        self.load_error
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// The model in service, or why none is: the last load's error, or
    /// that no model is loaded.
    pub fn serving(&self) -> Result<Arc<ServedModel>, Error> {
        self.current().ok_or_else(|| {
            Error::NotServing(
                self.load_error()
                    .unwrap_or_else(|| "no model is loaded".into()),
            )
        })
    }
}
