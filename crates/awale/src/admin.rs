//! `awale admin`: the server's owner acts on the games file directly
//! (whoever can run this holds the file), above every rank: makes an
//! account an administrator (the first one is made here) or a moderator,
//! or a player again; each change in the moderators' log, by "the
//! server". Safe while the server runs (it sees the change within
//! seconds: sessions are looked up again every 10 s).

use std::process::ExitCode;

use anyhow::{bail, Context};
use awale_model::account::Role;
use awale_model::account::{ModAction, NewModAction};
use awale_service::clock::Clock;
use awale_store::AccountStore;
use awale_store::ModerationStore;
use awale_store::Store;

/// Arguments of `awale admin`.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    action: Action,
    /// The game store, as for `awale serve`.
    #[arg(long, value_name = "PATH", global = true)]
    data: Option<std::path::PathBuf>,
}

#[derive(clap::Subcommand)]
enum Action {
    /// Makes the account NAME a moderator: it reads the reports, mutes
    /// players, removes chat lines, closes accounts.
    GrantModerator {
        /// The account's username (any case).
        name: String,
    },
    /// Makes the moderator NAME a player again.
    RevokeModerator {
        /// The account's username (any case).
        name: String,
    },
    /// Makes the account NAME an administrator: a moderator who also acts
    /// on moderators and makes players moderators (on the page).
    GrantAdmin {
        /// The account's username (any case).
        name: String,
    },
    /// Makes the administrator NAME a player again.
    RevokeAdmin {
        /// The account's username (any case).
        name: String,
    },
}

/// `awale admin ...`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let path = crate::serve::existing_store_path(args.data)?;
    let store = Store::open(&path).with_context(|| format!("game store {}", path.display()))?;
    let (name, role, action) = match &args.action {
        Action::GrantModerator { name } => (name, Role::Moderator, ModAction::GrantModerator),
        Action::RevokeModerator { name } => (name, Role::Player, ModAction::RevokeModerator),
        Action::GrantAdmin { name } => (name, Role::Admin, ModAction::GrantAdmin),
        Action::RevokeAdmin { name } => (name, Role::Player, ModAction::RevokeAdmin),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let done = runtime.block_on(async {
        let key = name.trim().to_ascii_lowercase();
        let Some(account) = store.account_by_key(key).await? else {
            bail!("no account `{name}` in {}", path.display());
        };
        if account.deleted_ms.is_some() {
            bail!("the account `{}` was deleted", account.username);
        }
        let logged = NewModAction {
            by: None,
            action,
            target: Some(account.id),
            game: None,
            report: None,
            reason: "awale admin (the server's command line)".into(),
            at_ms: Clock::system().now_ms(),
        };
        // Made and logged in one transaction; nothing when it is so
        // already (or, to revoke, the account has not that rank).
        if !store.moderate(logged).await? {
            bail!(
                "nothing changed: `{}` is a {}",
                account.username,
                account.role.name()
            );
        }
        anyhow::Ok(account.username)
    });
    store.close();
    let username = done?;
    outln!("{username} is now a {}", role.name());
    Ok(ExitCode::SUCCESS)
}
