//! `awale admin`: the server's owner acts on the games file directly
//! (whoever can run this holds the file): makes an account a moderator,
//! or a player again. Safe while the server runs (it sees the change
//! within seconds: sessions are looked up again every 10 s).

use std::process::ExitCode;

use anyhow::{bail, Context};
use awale_service::accounts::Role;
use awale_store::AccountStore;
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
}

/// `awale admin ...`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let path = crate::serve::existing_store_path(args.data)?;
    let store = Store::open(&path).with_context(|| format!("game store {}", path.display()))?;
    let (name, role) = match &args.action {
        Action::GrantModerator { name } => (name, Role::Moderator),
        Action::RevokeModerator { name } => (name, Role::Player),
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
        store.set_role(account.id, role).await?;
        anyhow::Ok(account.username)
    });
    store.close();
    let username = done?;
    outln!("{username} is now a {}", role.name());
    Ok(ExitCode::SUCCESS)
}
