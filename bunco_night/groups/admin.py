"""Admin pages for repairs."""

from django.contrib import admin

from .models import Group, Membership, Player, Prize


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0


class PrizeInline(admin.TabularInline):
    model = Prize
    extra = 0


@admin.register(Group)
class GroupAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "dues_cents"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline, PrizeInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["group", "user", "added"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "group", "kind", "retired"]
    list_filter = ["group", "kind", "retired"]
    search_fields = ["name", "email", "phone"]


@admin.register(Prize)
class PrizeAdmin(admin.ModelAdmin):
    list_display = ["group", "code", "amount_cents", "percent", "order"]
