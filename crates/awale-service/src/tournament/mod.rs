//! A tournament's chat room ([`chat`]). The rules of tournaments are in
//! [`crate::pairing`], their running in [`crate::tournaments`].

pub mod chat;
