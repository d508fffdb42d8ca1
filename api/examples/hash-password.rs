//! Prints the argon2id PHC string of a password read from stdin, for ADMIN_PASSWORD_HASH:
//!
//!     cargo run -p api --example hash-password
//!
//! The password is read from stdin (one line) so it never lands in the shell's history.

use std::io::BufRead;

fn main() -> anyhow::Result<()> {
    eprintln!("Type the new admin password and press Enter:");
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line)?;
    let password = line.trim_end_matches(['\r', '\n']);
    anyhow::ensure!(!password.trim().is_empty(), "the password is empty");
    println!("{}", api::domain::auth::hash(password)?);
    Ok(())
}
